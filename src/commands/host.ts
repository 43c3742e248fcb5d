// What a front end lends the slash commands: the session door, where text goes, and the few
// abilities that differ between the Ink UI and the line mode (work with a progress row,
// switching sessions in place, side questions).
import type { Config, ResolvedModel } from "../config/types.js";
import type { Session } from "../engine/session.js";

export interface CommandHost {
  readonly session: Session;
  readonly config: Config;
  readonly home: string;
  readonly cwd: string;
  readonly baseUrl?: string;
  /** USD of this session so far (the ledger's rows); null once a price was unknown. */
  cost(): number | null;
  /** USD of this process's side questions, shown apart (they stay out of the ledger, R-SIDE-4). */
  sideCost(): number | null;
  print(text: string): void;
  error(text: string): void;
  /** Lines after the command list in `/help`: this front end's keys. */
  readonly keyHints: readonly string[];
  /** Facts only this front end knows, for `/status` (context %, busy, queued). */
  statusFacts(): string[];
  /**
   * Runs a turn or a compaction as work Ctrl+C interrupts; a failure is reported by the host
   * and gives undefined.
   */
  work<T>(fn: () => Promise<T>, phase: "thinking" | "compacting"): Promise<T | undefined>;
  /** After a model switch, so a status line can follow. */
  modelChanged?(model: ResolvedModel): void;
  /** Opens another session in place of this one (`/resume <id>`, `/fork`); absent = not here. */
  switchTo?(id: string): Promise<void>;
  /** Opens a picker of the workspace's sessions (`/resume` without an id); absent = list them. */
  pickSession?(): void;
  /** `/vim`: the composer's vim keys on or off; returns whether they are on now (R-UI-30). */
  toggleVim?(): boolean;
  /** `/theme [name]`: that theme now, or a picker of them with a preview (R-UI-30). */
  setTheme?(name: string | undefined): void;
  /** Opens a picker of the agents (`/agents`) or MCP servers (`/mcp` after its report); absent = the list only. */
  pickAgents?(): void;
  pickMcp?(): void;
  /** Opens a picker of the models (`/model` without an id); absent = list them. */
  pickModel?(): void;
  /** Opens a picker of earlier prompts to rewind to (`/rewind` without a turn); absent = the last turn. */
  pickRewind?(): void;
  /**
   * After a refusal that `--force` overrides (files changed since the newest snapshot), printed
   * first: asks whether to run `line`, the same command forced; absent = the refusal says how.
   */
  offerForce?(line: string): void;
  /** Asks a side question (`/btw`): a panel may answer later, the line mode before it returns. */
  side(question: string): void | Promise<void>;
  quit(): void | Promise<void>;
}

/**
 * When a command may run in a front end that stays open during work:
 * `now` — reports or adjusts the display, busy or not (R-UI-4);
 * `idle` — changes the session or starts work, so it waits for an idle prompt;
 * `switch` — stops the work first and runs in the order typed, dropping queued text (R-UI-3);
 * `quit` — leaves.
 */
export type CommandTiming = "now" | "idle" | "switch" | "quit";

export interface SlashCommand {
  name: string;
  aliases?: string[];
  /** Argument hint for help and the menu, e.g. `[N]`, `<id>`. */
  args?: string;
  description: string;
  timing: CommandTiming | ((args: string[]) => CommandTiming);
  run(host: CommandHost, args: string[], rest: string): void | Promise<void>;
  /** A custom command or skill (R-WF-2): the file it came from. */
  source?: string;
  /** A custom command or skill: its body expanded with the arguments, as a prompt. */
  prompt?(rest: string): WorkflowPrompt;
}

/** A custom command's prompt: the expanded body, its `allowed-tools` as tern rules, its `model`. */
export interface WorkflowPrompt {
  text: string;
  allow: string[];
  model?: string;
  /** The body runs `!`cmd`` before it is sent (Claude Code's bash in slash commands). */
  shell?: boolean;
}

/** The one line a failed command prints. */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
