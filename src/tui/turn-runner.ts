// Engine work one piece at a time: a prompt becomes a turn, /compact a compaction; the UI is
// busy while it runs and until the session is idle. Follow-ups typed meanwhile go to the
// engine's queue (a prompt `send` while busy), which joins them to the running turn or starts the next.
import type { Config } from "../config/types.js";
import { buildPromptContent, InputError } from "../commands/prompt-input.js";
import type { Session } from "../engine/session.js";
import type { WorkPhase } from "./controller-types.js";
import type { Store } from "./store.js";
import type { ItemKind } from "./ui-state.js";

type ContentPart = ReturnType<typeof buildPromptContent>[number];

export interface TurnRunnerDeps {
  store: Store;
  /** The current session (it changes on /clear, /resume, /fork). */
  session(): Session;
  cwd: string;
  /** Large pastes are placeholders in the composer until the text is sent. */
  expandPastes(text: string): string;
  /**
   * The config in force: an `@file` is cut to `toolOutputLimit`, as in `tern run` (R-WF-4), and a
   * file a read deny rule covers is not attached (R-WF-5).
   */
  config(): Pick<Config, "toolOutputLimit" | "permissions">;
  /** Images pasted with Ctrl+V that `text` names as `@clipboard-N.png` (R-UI-21; kept ones too). */
  pastedImages(text: string): ReadonlyMap<string, Buffer>;
  print(kind: ItemKind, text: string): void;
  /** True once the UI is exiting: nothing queued may start then. */
  exiting(): boolean;
}

export class TurnRunner {
  /** The running turn or compaction, so session switches and the exit wait for it to settle. */
  private work: Promise<unknown> = Promise.resolve();
  private compacting = false;

  constructor(private readonly deps: TurnRunnerDeps) {}

  get isCompacting(): boolean {
    return this.compacting;
  }

  async runPrompt(text: string): Promise<void> {
    const content = this.content(text);
    if (!content) return;
    this.deps.print("user", `› ${text}`);
    await this.runWork(() => this.deps.session().send({ type: "prompt", content }), { kind: "thinking" });
  }

  /** Runs one engine command as "work": busy while it runs and until the session is idle. */
  async runWork<T>(fn: () => Promise<T>, phase: WorkPhase): Promise<T | undefined> {
    const { store } = this.deps;
    store.dispatch({ type: "busy", busy: true, phase });
    this.compacting = phase.kind === "compacting";
    const work = fn();
    this.work = work.catch(() => undefined).then(() => this.deps.session().idle());
    try {
      return await work;
    } catch (err) {
      this.deps.print("error", err instanceof Error ? err.message : String(err));
      return undefined;
    } finally {
      this.compacting = false;
      // A queued follow-up may start the next turn (R-TURN-7): busy until the session is idle.
      await this.deps.session().idle();
      store.dispatch({ type: "busy", busy: false });
    }
  }

  /** Waits until the running turn or compaction has settled. */
  settled(): Promise<unknown> {
    return this.work;
  }

  /** Enter while busy: the text joins the engine's queue, shown as typed (R-UI-1). */
  followUp(shown: string): void {
    const content = this.content(shown);
    // Sent while busy, a prompt joins the engine's follow-up queue (R-TURN-7).
    if (content)
      void this.deps
        .session()
        .send({ type: "prompt", content, text: shown })
        .catch(() => undefined);
  }

  /** A held queue was released while nothing ran: the turn it started is work too. */
  followUpStarted(): void {
    if (!this.deps.store.get().busy)
      void this.runWork(() => this.deps.session().idle(), { kind: "thinking" });
  }

  /** The prompt as content parts (pastes expanded, `@` files and images attached); a bad input is one error line. */
  private content(text: string): ContentPart[] | undefined {
    try {
      const session = this.deps.session();
      const expanded = this.deps.expandPastes(text);
      return buildPromptContent(expanded, this.deps.cwd, [], session.status().model.endpoint.api, {
        textLimit: this.deps.config().toolOutputLimit,
        deny: this.deps.config().permissions.deny,
        pastedImages: this.deps.pastedImages(expanded),
      });
    } catch (err) {
      if (err instanceof InputError) {
        this.deps.print("error", err.message);
        return undefined;
      }
      throw err;
    }
  }
}
