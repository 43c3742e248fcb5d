// Engine work one piece at a time: a prompt becomes a turn, /compact a compaction; the UI is
// busy while it runs, and when it ends the next queued follow-up starts (R-TURN-7). The engine
// also takes queued follow-ups itself between tool batches (`takeFollowUp`).
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

  /** Runs one engine command as "work": busy while it runs, then the queue moves on. */
  async runWork<T>(fn: () => Promise<T>, phase: WorkPhase): Promise<T | undefined> {
    const { store } = this.deps;
    store.dispatch({ type: "busy", busy: true, phase });
    this.compacting = phase.kind === "compacting";
    const work = fn();
    this.work = work.catch(() => undefined);
    try {
      return await work;
    } catch (err) {
      this.deps.print("error", err instanceof Error ? err.message : String(err));
      return undefined;
    } finally {
      this.compacting = false;
      store.dispatch({ type: "busy", busy: false });
      this.sendQueued();
    }
  }

  /** Waits until the running turn or compaction has settled. */
  settled(): Promise<unknown> {
    return this.work;
  }

  /** Text still queued when the work ends starts the next turn (R-TURN-7). */
  sendQueued(): void {
    const { store } = this.deps;
    const state = store.get();
    if (this.deps.exiting() || state.busy || state.held || state.queue.length === 0) return;
    const next = state.queue[0];
    store.dispatch({ type: "dequeue" });
    void this.runPrompt(next);
  }

  /** R-TURN-7: the engine takes the oldest queued follow-up after each tool batch. */
  takeFollowUp(): ContentPart[] | undefined {
    const { store } = this.deps;
    const state = store.get();
    if (state.held || state.queue.length === 0) return undefined;
    const text = state.queue[0];
    store.dispatch({ type: "dequeue" });
    const content = this.content(text);
    if (content) this.deps.print("user", `› ${text}`);
    return content;
  }

  /** The prompt as content parts (pastes expanded, `@` images attached); a bad input is one error line. */
  private content(text: string): ContentPart[] | undefined {
    try {
      const session = this.deps.session();
      return buildPromptContent(
        this.deps.expandPastes(text),
        this.deps.cwd,
        [],
        session.status().model.endpoint.api,
      );
    } catch (err) {
      if (err instanceof InputError) {
        this.deps.print("error", err.message);
        return undefined;
      }
      throw err;
    }
  }
}
