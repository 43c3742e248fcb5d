// The controller as the modules around it see it: what it is built from (the session opener the
// cli passes in) and the part of it that slash commands and /btw use. Types only, importing
// nothing from the controller, so those modules and the controller never import each other.
import type { Config } from "../config/types.js";
import type { SessionHooks } from "../engine/door/requests.js";
import type { Session } from "../engine/session.js";
import type { Store } from "./store.js";
import type { ItemKind, UiState } from "./ui-state.js";

export interface OpenedUi {
  session: Session;
  config: Config;
  warnings: string[];
  resumed: boolean;
}

export type TuiHooks = SessionHooks;

export interface TuiDeps {
  /** Opens (or resumes) a session with these hooks; the cli front end owns configuration. */
  open(hooks: TuiHooks, resume?: string): Promise<OpenedUi>;
  home: string;
  cwd: string;
  baseUrl?: string;
  /** `tern --resume` without an id: a session picker comes before the UI (R-UI-17). */
  pickFirst?: boolean;
}

/** What a piece of engine work shows in the progress row while it runs. */
export type WorkPhase = { kind: "thinking" } | { kind: "compacting" };

/** The controller as slash commands (`commands.ts`) and side questions (`side.ts`) drive it. */
export interface UiControl {
  readonly store: Store;
  readonly state: UiState;
  /** The current session: /clear, /resume and /fork replace it. */
  readonly session: Session;
  readonly config: Config;
  readonly deps: TuiDeps;
  readonly isCompacting: boolean;
  print(kind: ItemKind, text: string): void;
  /** Runs one engine command as work: busy while it runs, then the queue moves on. */
  runWork<T>(fn: () => Promise<T>, phase: WorkPhase): Promise<T | undefined>;
  /** Resolves once the running turn or compaction has settled. */
  settled(): Promise<unknown>;
  /** Runs a session-changing command after the ones typed before it. */
  serial(fn: () => Promise<void>): Promise<void>;
  /** Stops the work and drops the queue and the side thread before a session switch. */
  interruptForSwitch(): void;
  switchTo(id: string): Promise<void>;
  quit(): Promise<void>;
  /** The running side question's cancellation, so Ctrl+C and session switches can stop it. */
  setSideAbort(controller: AbortController | undefined): void;
}
