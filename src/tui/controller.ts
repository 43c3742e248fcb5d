// The UI's one stateful object: owns the current session, turns user intents (Enter, Ctrl+C,
// y/n/a) into engine commands, and feeds engine events to the store. Components never call
// the engine; they read the store and report keys here (keys.ts). The work itself runs in
// `turn-runner.ts`, the engine's prompts are answered by `approval-flow.ts` and `limit-flow.ts`.
import type { Config } from "../config/types.js";
import type { Session } from "../engine/session.js";
import { ApprovalFlow } from "./approval-flow.js";
import { foldChildren, lastToolOutput } from "./child-fold.js";
import { imageInputOf } from "./clipboard.js";
import { ComposerInput } from "./composer-input.js";
import { ElicitFlow } from "./elicit-flow.js";
import { uiRequests } from "./engine-requests.js";
import type { OpenedUi, TuiDeps, TuiHooks, UiControl, WorkPhase } from "./controller-types.js";
import { freshNotices, greeting } from "./greeting.js";
import { LimitFlow } from "./limit-flow.js";
import { projectServerOffer } from "./project-server-offer.js";
import { nextMode, PlanFlow } from "./plan-flow.js";
import { RawInput } from "./raw-input.js";
import { replayAction } from "./replay.js";
import { StatusLine } from "./status-line.js";
import { Store } from "./store.js";
import { TurnRunner } from "./turn-runner.js";
import { initialState, type ItemKind } from "./ui-state.js";
import { loadUiCommands } from "./index.js";

export class TuiController implements UiControl {
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
  private readonly limits: LimitFlow;
  private readonly plans: PlanFlow;
  private readonly elicits: ElicitFlow;
  private readonly turns: TurnRunner;
  private readonly statusLine: StatusLine;
  private sideAbort: AbortController | undefined;
  /** Session-changing commands (/clear, /resume, /fork) run one after another, in the order typed. */
  private chain: Promise<unknown> = Promise.resolve();
  private lastEmptyCtrlC = Number.NEGATIVE_INFINITY;
  private exiting = false;
  private greeted = false;
  private readonly seen = new Set<string>(); // the notices shown so far

  constructor(readonly deps: TuiDeps) {
    this.store = new Store(initialState({ model: "", sessionId: "", contextWindow: 0 }));
    this.approvals = new ApprovalFlow(this.store);
    this.limits = new LimitFlow(this.store);
    this.plans = new PlanFlow(this.store, (plan) => this.print("info", plan));
    this.elicits = new ElicitFlow(this.store, (text) => this.print("info", text));
    this.composer = new ComposerInput({
      store: this.store,
      home: deps.home,
      cwd: deps.cwd,
      print: (kind, text) => this.print(kind, text),
      takeBackFollowUp: () => this.session.takeBackFollowUp(),
      imageInput: () => imageInputOf(this.session.status().model),
      listResources: () => this.session.mcpResources(),
    });
    this.turns = new TurnRunner({
      store: this.store,
      session: () => this.session,
      cwd: deps.cwd,
      expandPastes: (text) => this.composer.pastes.expand(text),
      config: () => this.config,
      pastedImages: (text) => this.composer.clipboard.imagesFor(text),
      print: (kind, text) => this.print(kind, text),
      exiting: () => this.exiting,
    });
    this.statusLine = new StatusLine(this.store, deps, (text) => this.print("info", text));
    this.exited = new Promise((resolve) => {
      this.resolveExit = resolve;
    });
    const { store, approvals, limits, plans, elicits } = this;
    this.hooks = uiRequests({ store, approvals, limits, plans, elicits });
  }

  get state() {
    return this.store.get();
  }

  print(kind: ItemKind, text: string): void {
    this.store.dispatch({ type: "print", kind, text });
  }

  /** Subscribes to a freshly opened session and makes it the current one. */
  async attach(opened: OpenedUi): Promise<void> {
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
      maxAttempts: opened.config.retry.maxRetries + 1,
    });
    const offer = this.greeted ? undefined : projectServerOffer(this.deps.home, this.deps.cwd, opened.config);
    for (const line of freshNotices(this.seen, opened.warnings, model.id, offer)) this.print("info", line);
    // R-UI-16: the first screen names the version, model and workspace, and the keys for help.
    this.print("info", greeting(!this.greeted, model.id, this.deps.cwd, opened.session.id, opened.resumed));
    if (offer) this.print("info", offer);
    this.greeted = true;
    this.store.dispatch(await replayAction(opened.session, this.deps)); // R-UI-17: the conversation so far
    this.syncMode();
    this.statusLine.configure(opened.config.statusLine, opened.session.id);
    const own = opened.session.subscribe((event) => {
      this.store.dispatch({ type: "event", event, now: performance.now() });
      this.statusLine.event(event);
      if (event.type === "tool_result" || event.type === "turn_end")
        this.composer.filesMayHaveChanged(event.type === "turn_end");
      if (event.type === "turn_end") this.syncMode();
      if (event.type === "follow_up" && event.change === "started") this.turns.followUpStarted();
    });
    const children = foldChildren(opened.session, this.store); // sub-agents' calls, under their task line
    this.unsubscribe = () => void [own(), children()];
  }

  // ---- composer -------------------------------------------------------------------------

  /** Enter in the composer. */
  submit(): void {
    const state = this.state;
    // What the composer shows: large pastes are placeholders until the text is sent.
    const shown = state.composer.trim();
    if (this.elicits.takeTyped(shown, this.composer)) return;
    if (state.limit) {
      this.composer.set({ text: "", cursor: 0 });
      this.limits.answerTyped(shown);
      return;
    }
    if (state.planReview) {
      this.composer.set({ text: "", cursor: 0 });
      this.plans.answerTyped(shown);
      return;
    }
    if (!shown) {
      // R-UI-2: an empty Enter sends the queue now (interrupting the work); without a queue it does nothing.
      if (state.queue.length > 0) this.session.sendFollowUpsNow();
      return;
    }
    this.composer.set({ text: "", cursor: 0 });
    const text = this.composer.pastes.expand(shown);
    // This process recalls what the composer showed; the file keeps the text as sent.
    this.composer.history.add(shown, text);
    if (/^\/[A-Za-z]/.test(text)) {
      void loadUiCommands().then(async (m) => {
        await m.runSlash(this, text);
        this.syncMode();
      });
      return;
    }
    if (state.busy) this.turns.followUp(shown);
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
      this.session.cancel({ queue: "keep" });
      return;
    }
    if (state.limit) {
      this.limits.answer("no");
      return;
    }
    if (state.planReview) {
      this.plans.answer({ choice: "keep_planning" });
      return;
    }
    if (this.elicits.cancel()) return;
    if (state.busy) {
      // Queued text is kept, but held: the interrupted turn must not roll straight into it.
      this.session.cancel({ queue: "hold" });
      return;
    }
    if (state.composer) {
      this.composer.set({ text: "", cursor: 0 });
      return;
    }
    const now = performance.now();
    if (now - this.lastEmptyCtrlC < 2000) {
      void this.quit();
      return;
    }
    this.lastEmptyCtrlC = now;
    // Transient: it holds for the 2 s a second press exits, then goes (R-UI-22).
    this.store.dispatch({ type: "hint", text: "press Ctrl+C again to exit" });
    setTimeout(() => this.store.dispatch({ type: "hint", text: null }), 2000).unref();
  }

  /** Ctrl+O: the newest finished tool call's whole output, into the transcript. */
  expandLastTool(): void {
    const whole = lastToolOutput(this.state.items);
    this.print(whole === undefined ? "info" : "output", whole ?? "no tool output to show yet");
  }

  // ---- work -----------------------------------------------------------------------------

  get isCompacting(): boolean {
    return this.turns.isCompacting;
  }

  runPrompt(text: string): Promise<void> {
    return this.turns.runPrompt(text);
  }

  runWork<T>(fn: () => Promise<T>, phase: WorkPhase): Promise<T | undefined> {
    return this.turns.runWork(fn, phase);
  }

  /** Waits until the running turn or compaction has settled. */
  settled(): Promise<unknown> {
    return this.turns.settled();
  }

  // ---- sessions -------------------------------------------------------------------------

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
    this.session.dropFollowUps();
    this.sideAbort?.abort();
    this.store.dispatch({ type: "side_clear" });
    if (this.state.busy) this.session.cancel();
  }

  /** Opens another session (resume or fork) in place of the current one. */
  async switchTo(id: string): Promise<void> {
    await this.settled();
    const opened = await this.deps.open(this.hooks, id);
    const old = this.session;
    await this.attach(opened);
    await old.close();
  }

  async quit(): Promise<void> {
    if (this.exiting) return;
    this.exiting = true;
    this.sideAbort?.abort();
    this.answerApproval("n", true);
    this.limits.answer("no");
    this.plans.answer({ choice: "keep_planning" });
    this.elicits.cancel();
    this.session.cancel({ queue: "drop" });
    this.resolveExit();
  }

  /** Shift+Tab (R-UI-24): the next permission mode, for the following calls. */
  async cycleMode(): Promise<void> {
    const mode = nextMode(this.session.status().mode);
    await this.session.send({ type: "set_mode", mode });
    this.syncMode();
  }

  /** The status line's mode, after anything that may have changed it (/yolo, a plan approved). */
  syncMode(): void {
    const mode = this.session.status().mode;
    if (mode !== this.state.status.mode) this.store.dispatch({ type: "mode", mode });
  }

  // ---- prompts from the engine, side questions --------------------------------------------

  /** Answers the prompt's current call (or all remaining); the batch resolves once all are answered. */
  answerApproval(answer: "y" | "n" | "a", all = false): void {
    this.approvals.answer(answer, all);
  }

  setSideAbort(controller: AbortController | undefined): void {
    this.sideAbort = controller;
  }
}
