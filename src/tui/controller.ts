// The UI's one stateful object: owns the current session, turns user intents (Enter, Ctrl+C,
// y/n/a) into engine commands, and feeds engine events to the store. Components never call
// the engine; they read the store and report keys here (keys.ts).
import type { Config } from "../config/types.js";
import type { SessionHooks } from "../engine/core.js";
import { buildPromptContent, InputError } from "../commands/prompt-input.js";
import type { Session } from "../engine/session.js";
import { ApprovalFlow } from "./approval-flow.js";
import { greeting } from "./greeting.js";
import { ComposerInput } from "./composer-input.js";
import { RawInput } from "./raw-input.js";
import { initialState, type ItemKind } from "./state.js";
import { Store } from "./store.js";

export interface OpenedUi {
  session: Session;
  config: Config;
  warnings: string[];
  resumed: boolean;
}

export interface TuiDeps {
  /** Opens (or resumes) a session with these hooks; the cli front end owns configuration. */
  open(hooks: TuiHooks, resume?: string): Promise<OpenedUi>;
  home: string;
  cwd: string;
  baseUrl?: string;
}

type LimitAnswer = "yes" | "no" | "all";
type ContentPart = ReturnType<typeof buildPromptContent>[number];
export type TuiHooks = SessionHooks;

export class TuiController {
  readonly store: Store;
  session!: Session;
  config!: Config;
  readonly hooks: TuiHooks;
  /** The composer's editing state beyond its text: history, pastes, menu, kill buffer. */
  readonly composer: ComposerInput;
  /** Raw input Ink's keys hide: bracketed paste and Delete vs Backspace (raw-input.ts). */
  readonly input = new RawInput((text) => this.composer.paste(text));
  /** Resolves when the UI should exit. */
  readonly exited: Promise<void>;
  private resolveExit!: () => void;
  private unsubscribe: (() => void) | undefined;
  private readonly approvals: ApprovalFlow;
  private limitResolve: ((answer: LimitAnswer) => void) | undefined;
  private sideAbort: AbortController | undefined;
  /** The running turn or compaction, so session switches wait for it to settle. */
  private work: Promise<unknown> = Promise.resolve();
  /** Session-changing commands (/clear, /resume, /fork) run one after another, in the order typed. */
  private chain: Promise<unknown> = Promise.resolve();
  private compacting = false;
  private lastEmptyCtrlC = 0;
  private exiting = false;
  private greeted = false;

  constructor(readonly deps: TuiDeps) {
    this.store = new Store(initialState({ model: "", sessionId: "", contextWindow: 0 }));
    this.approvals = new ApprovalFlow(this.store);
    this.composer = new ComposerInput({
      store: this.store,
      home: deps.home,
      cwd: deps.cwd,
      print: (kind, text) => this.print(kind, text),
    });
    this.exited = new Promise((resolve) => {
      this.resolveExit = resolve;
    });
    this.hooks = {
      approve: (calls) => this.approvals.ask(calls),
      onLimit: (limit, used, allowed) => this.askLimit(limit, used, allowed),
      takeFollowUp: () => this.takeFollowUp(),
      offersOutsideSandbox: true,
    };
  }

  get state() {
    return this.store.get();
  }

  print(kind: ItemKind, text: string): void {
    this.store.dispatch({ type: "print", kind, text });
  }

  /** Subscribes to a freshly opened session and makes it the current one. */
  attach(opened: OpenedUi): void {
    this.unsubscribe?.();
    this.session = opened.session;
    this.config = opened.config;
    const model = opened.session.status().model;
    this.store.dispatch({
      type: "session",
      model: model.id,
      sessionId: opened.session.id,
      contextWindow: model.info.contextWindow,
      thinking: model.thinking,
      priced: model.info.pricing !== undefined,
    });
    for (const warning of opened.warnings) this.print("info", `notice: ${warning}`);
    // R-UI-16: the first screen names the version, model and workspace, and the keys for help.
    this.print("info", greeting(!this.greeted, model.id, this.deps.cwd, opened.session.id, opened.resumed));
    this.greeted = true;
    this.unsubscribe = opened.session.subscribe((event) =>
      this.store.dispatch({ type: "event", event, now: Date.now() }),
    );
  }

  get isCompacting(): boolean {
    return this.compacting;
  }

  // ---- composer -------------------------------------------------------------------------

  /** Enter in the composer. */
  submit(): void {
    const state = this.state;
    // What the composer shows: large pastes are placeholders until the text is sent.
    const shown = state.composer.trim();
    if (state.limit) {
      this.composer.set({ text: "", cursor: 0 });
      const answer = shown.toLowerCase();
      this.answerLimit(answer === "yyy" ? "all" : answer.startsWith("y") ? "yes" : "no");
      return;
    }
    if (!shown) {
      // R-UI-2: an empty Enter sends the queue now (interrupting the work); without a queue it does nothing.
      if (state.queue.length === 0) return;
      this.store.dispatch({ type: "hold", held: false });
      if (state.busy) this.session.cancel();
      else this.sendQueued();
      return;
    }
    this.composer.set({ text: "", cursor: 0 });
    const text = this.composer.pastes.expand(shown);
    // This process recalls what the composer showed; the file keeps the text as sent.
    this.composer.history.add(shown, text);
    if (/^\/[A-Za-z]/.test(text)) {
      void import("./commands.js").then((m) => m.runSlash(this, text));
      return;
    }
    if (state.busy) this.store.dispatch({ type: "enqueue", text: shown });
    else void this.runPrompt(shown);
  }

  /** Ctrl+C: the innermost thing that is going on stops (R-UI-5, R-SIDE-5). */
  ctrlC(): void {
    const state = this.state;
    if (state.side.open) {
      // Cancels an in-flight side question; the main turn keeps running (R-SIDE-5).
      this.sideAbort?.abort();
      this.store.dispatch({ type: state.side.pending ? "side_cancel" : "side_close" });
      return;
    }
    if (state.approval) {
      this.answerApproval("n", true);
      this.session.cancel();
      return;
    }
    if (state.limit) {
      this.answerLimit("no");
      return;
    }
    if (state.busy) {
      // Queued text is kept, but held: the interrupted turn must not roll straight into it.
      if (state.queue.length > 0) this.store.dispatch({ type: "hold", held: true });
      this.session.cancel();
      return;
    }
    if (state.composer) {
      this.composer.set({ text: "", cursor: 0 });
      return;
    }
    const now = Date.now();
    if (now - this.lastEmptyCtrlC < 2000) {
      void this.quit();
      return;
    }
    this.lastEmptyCtrlC = now;
    this.print("info", "press Ctrl+C again to exit");
  }

  /** Ctrl+O: the newest finished tool call's whole output, into the transcript. */
  expandLastTool(): void {
    const item = [...this.state.items].reverse().find((i) => i.tool?.content !== undefined);
    if (!item?.tool) {
      this.print("info", "no tool output to show yet");
      return;
    }
    this.store.dispatch({ type: "print", kind: "output", text: item.tool.content ?? "" });
  }

  // ---- turns ----------------------------------------------------------------------------

  private content(text: string): ContentPart[] | undefined {
    try {
      return buildPromptContent(
        this.composer.pastes.expand(text),
        this.deps.cwd,
        [],
        this.session.status().model.endpoint.api,
      );
    } catch (err) {
      if (err instanceof InputError) {
        this.print("error", err.message);
        return undefined;
      }
      throw err;
    }
  }

  async runPrompt(text: string): Promise<void> {
    const content = this.content(text);
    if (!content) return;
    this.print("user", `› ${text}`);
    await this.runWork(() => this.session.send({ type: "prompt", content }), { kind: "thinking" });
  }

  /** Runs one engine command as "work": busy while it runs, then the queue moves on. */
  async runWork<T>(
    fn: () => Promise<T>,
    phase: { kind: "thinking" } | { kind: "compacting" },
  ): Promise<T | undefined> {
    this.store.dispatch({ type: "busy", busy: true, phase });
    this.compacting = phase.kind === "compacting";
    const work = fn();
    this.work = work.catch(() => undefined);
    try {
      return await work;
    } catch (err) {
      this.print("error", err instanceof Error ? err.message : String(err));
      return undefined;
    } finally {
      this.compacting = false;
      this.store.dispatch({ type: "busy", busy: false });
      this.sendQueued();
    }
  }

  /** Waits until the running turn or compaction has settled. */
  settled(): Promise<unknown> {
    return this.work;
  }

  /** Text still queued when the work ends starts the next turn (R-TURN-7). */
  private sendQueued(): void {
    const state = this.state;
    if (this.exiting || state.busy || state.held || state.queue.length === 0) return;
    const next = state.queue[0];
    this.store.dispatch({ type: "dequeue" });
    void this.runPrompt(next);
  }

  /** R-TURN-7: the engine takes the oldest queued follow-up after each tool batch. */
  private takeFollowUp(): ContentPart[] | undefined {
    const state = this.state;
    if (state.held || state.queue.length === 0) return undefined;
    const text = state.queue[0];
    this.store.dispatch({ type: "dequeue" });
    const content = this.content(text);
    if (content) this.print("user", `› ${text}`);
    return content;
  }

  /** Runs a session-changing command after the ones typed before it. */
  serial(fn: () => Promise<void>): Promise<void> {
    const next = this.chain
      .then(fn)
      .catch((err) => this.print("error", err instanceof Error ? err.message : String(err)));
    this.chain = next;
    return next;
  }

  /** /clear, /resume, /fork: stop the work, drop queued text and the side thread (R-UI-3, R-SIDE-5). */
  interruptForSwitch(): void {
    this.store.dispatch({ type: "drop_queue" });
    this.sideAbort?.abort();
    this.store.dispatch({ type: "side_clear" });
    if (this.state.busy) this.session.cancel();
  }

  /** Opens another session (resume or fork) in place of the current one. */
  async switchTo(id: string): Promise<void> {
    await this.settled();
    const opened = await this.deps.open(this.hooks, id);
    const old = this.session;
    this.attach(opened);
    await old.close();
  }

  async quit(): Promise<void> {
    if (this.exiting) return;
    this.exiting = true;
    this.sideAbort?.abort();
    this.answerApproval("n", true);
    this.answerLimit("no");
    this.session.cancel();
    this.resolveExit();
  }

  // ---- prompts from the engine ------------------------------------------------------------

  /** Answers the prompt's current call (or all remaining); the batch resolves once all are answered. */
  answerApproval(answer: "y" | "n" | "a", all = false): void {
    this.approvals.answer(answer, all);
  }

  private askLimit(limit: string, used: number, allowed: number): Promise<LimitAnswer> {
    return new Promise((resolve) => {
      this.limitResolve = resolve;
      this.store.dispatch({ type: "limit", prompt: { limit, used, allowed } });
    });
  }

  private answerLimit(answer: LimitAnswer): void {
    const resolve = this.limitResolve;
    if (!resolve) return;
    this.limitResolve = undefined;
    this.store.dispatch({ type: "limit", prompt: null });
    resolve(answer);
  }

  // ---- side questions ----------------------------------------------------------------------

  setSideAbort(controller: AbortController | undefined): void {
    this.sideAbort = controller;
  }
}
