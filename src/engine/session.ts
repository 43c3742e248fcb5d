// One async task per session (SPEC §4): commands go in through a queue and run one at a time,
// events come out through the bus, cancellation is an AbortSignal per running command.
import { sessionStatus } from "./session-status.js";
import { pruneClearedImages } from "../record/attachments.js";
import { settleProcessKills } from "../tools/builtin/index.js";
import type { TodoItem } from "../tools/types.js";
import type { EventBus } from "./bus.js";
import { mcpCommand, mcpPromptText, mcpPrompts, mcpResourceMentions } from "./mcp-command.js";
import type { McpPrompt } from "../tools/mcp/mcp-prompts.js";
import type { SessionCore } from "./core.js";
import { askSide } from "./side.js";
import { loadCompaction } from "./compaction/index.js";
import { runTurn } from "./turn/turn.js";
import { isFollowUp, notRunOutcome, type PromptCommand, promptTurn } from "./prompt-turn.js";
import { runUndoCommand, sessionDiff } from "./undo/session-undo.js";
import type { ContentPart } from "../vocab/messages.js";
import type {
  CallPresenter,
  CompactResult,
  FileCommand,
  FollowUp,
  JobSummary,
  Listener,
  QueueOnCancel,
  QueuedFollowUp,
  SessionCommand,
  SessionDoor,
  SessionStatus,
  SideEvent,
  SideExchange,
  SideResult,
  TranscriptLine,
  TurnOutcome,
  UndoReport,
} from "./door/index.js";

export type * from "./door/commands.js";
export { renderTodos } from "../tools/todos-text.js";

/**
 * The one door between the engine and its front ends: commands in (`send`, `followUp`, `cancel`,
 * `askSide`), events out (`subscribe`), read-only queries (`status`, `transcript`, `todos`,
 * `followUps`). The engine state behind it stays private, so no front end can change it around
 * the queue.
 */
export class Session implements SessionDoor {
  private tail: Promise<unknown> = Promise.resolve();
  private running: AbortController | undefined;
  private closed = false;
  /** Commands sent and not yet settled; 0 = idle. */
  private pending = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly core: SessionCore,
    private readonly bus: EventBus,
    private readonly onClose: () => Promise<void>,
  ) {}

  /** Behind the door, for `coreOf` (engine tests) only. */
  static internals(session: Session): SessionCore {
    return session.core;
  }

  get id(): string {
    return this.core.id;
  }

  status(): SessionStatus {
    return sessionStatus(this.core);
  }

  /** Every record line of the session so far (the archive; compaction not applied). */
  transcript(): readonly TranscriptLine[] {
    return this.core.fold.archive;
  }

  todos(): readonly TodoItem[] {
    return this.core.todos.get();
  }

  /** Background jobs (R-JOB-2, `/jobs`): each with its state and its last lines of output. */
  jobs(): JobSummary[] {
    return (this.core.jobs?.list() ?? []).map((job) => ({ ...job.info(), lastLines: job.lastLines(3) }));
  }

  /** Ends one background job's process group (`/jobs kill <id>`); rejects naming a job that is not there. */
  async killJob(id: string): Promise<void> {
    const job = (await this.core.jobTable()).find(id);
    if (typeof job === "string") throw new RangeError(job);
    await job.stop("killed");
  }

  /** `/mcp [reconnect <name>]` (R-EXT): the MCP servers with state and tools; reconnects one. */
  mcp(args: string[]): Promise<string> {
    return mcpCommand(this.core, args);
  }

  /** Starts MCP servers now (`/mcp approve`, R-WF-3); their tools join the next model request. The names that were new. */
  startToolSets(configs: import("../config/types.js").ToolSetConfig[]): Promise<string[]> {
    return this.core.addToolSets?.(configs) ?? Promise.resolve([]);
  }

  /** MCP prompts (R-WF-2, `/mcp__<set>__<prompt>`), once the servers have started. */
  mcpPrompts(): Promise<McpPrompt[]> {
    return mcpPrompts(this.core);
  }

  /** `<server>:<uri>` of the MCP servers' resources, for the `@` menu (R-MCP-2). */
  mcpResources = (): Promise<string[]> => mcpResourceMentions(this.core);

  /** One MCP prompt's text, its arguments by position. */
  mcpPrompt(prompt: McpPrompt, words: readonly string[]): Promise<string> {
    return mcpPromptText(this.core, prompt, words);
  }

  /** How calls show themselves (their tools' own title, kind, files, preview): for a replay of the record. */
  async callPresenter(): Promise<CallPresenter> {
    await this.core.executor.ready();
    return (call) => this.core.executor.present({ id: "", ...call });
  }

  /** A side question (`/btw`, R-SIDE-1..4): runs beside the queue and commits nothing. */
  askSide(
    question: string,
    opts: { history: SideExchange[]; signal: AbortSignal; onEvent(event: SideEvent): void },
  ): Promise<SideResult> {
    return askSide(this.core, question, opts);
  }

  subscribe(listener: Listener, opts: { children?: boolean } = {}): () => void {
    return this.bus.subscribe(listener, opts);
  }

  /** Queue a command; it runs after every command sent before it. */
  send(command: Extract<SessionCommand, { type: "prompt" | "retry" }>): Promise<TurnOutcome>;
  send(command: Extract<SessionCommand, { type: "compact" }>): Promise<CompactResult>;
  send(command: FileCommand): Promise<UndoReport>;
  send(command: SessionCommand): Promise<unknown>;
  send(command: SessionCommand): Promise<unknown> {
    if (command.type === "prompt" && this.pending > 0 && !this.closed && isFollowUp(command))
      return this.queuedPrompt(command);
    this.pending++;
    const result = this.tail.then(() => this.execute(command));
    this.tail = result.catch(() => undefined).then(() => this.settledOne());
    return result;
  }

  /**
   * A follow-up (R-UI-1, R-TURN-7), at once, busy or not: it is queued (a `follow_up` event), the
   * running turn takes the oldest after each completed tool batch, and what is still queued
   * when the session goes idle starts the next turn, one follow-up per turn. Sent to an idle
   * session whose queue is not held, it starts a turn now. `text` is what the front end shows
   * for it (default: the content's text).
   */
  followUp(content: ContentPart[], opts: { text?: string } = {}): FollowUp {
    if (this.closed) throw new Error("session is closed");
    const text = opts.text ?? content.map((p) => (p.type === "text" ? p.text : "")).join("");
    const ticket = this.core.followUps.add(content, text);
    if (this.pending === 0) this.startQueued();
    return ticket;
  }

  /** A prompt sent while busy is a follow-up (one entrance, R-TURN-7); one that never ran resolves `cancelled`. */
  private queuedPrompt(command: PromptCommand): Promise<TurnOutcome> {
    const ticket = this.followUp(command.content, { text: command.text });
    const outcome = ticket.outcome.then((settled) => settled ?? notRunOutcome(this.core));
    // As with `followUp`'s ticket, a caller that never awaits it cannot get an unhandled rejection.
    outcome.catch(() => undefined);
    return outcome;
  }

  /** The follow-ups still queued, oldest first, and whether an interrupt holds them. */
  followUps(): { queued: QueuedFollowUp[]; held: boolean } {
    return { queued: this.core.followUps.list(), held: this.core.followUps.held };
  }

  /** The newest queued follow-up, out of the queue (↑ to edit it); its ticket settles `undefined`. */
  takeBackFollowUp(): QueuedFollowUp | undefined {
    return this.core.followUps.takeBack();
  }

  /** Every queued follow-up goes (/clear, /resume, /fork: R-UI-3); their tickets settle `undefined`. */
  dropFollowUps(): void {
    this.core.followUps.drop();
  }

  /** R-UI-2: the queue goes now: a hold is released and the running command interrupted. */
  sendFollowUpsNow(): void {
    this.core.followUps.release();
    if (this.pending > 0) this.running?.abort();
    else this.startQueued();
  }

  /**
   * Interrupt the running command at once (Ctrl+C, SIGINT). Commands sent after it still run;
   * `queue` says what happens to the follow-ups (default `hold`: kept, moving nothing until
   * `sendFollowUpsNow`).
   */
  cancel(opts: { queue?: QueueOnCancel } = {}): void {
    const queue = opts.queue ?? "hold";
    if (queue === "hold") this.core.followUps.hold();
    else if (queue === "drop") this.core.followUps.drop();
    this.running?.abort();
  }

  /** Resolves once no command runs or waits and nothing queued can move (a held queue may stay). */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private settledOne(): void {
    this.pending--;
    if (this.pending > 0) return;
    if (!this.closed) this.startQueued();
    if (this.pending > 0) return;
    if (!this.closed) this.core.hookPoints?.idle();
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  /** The oldest queued follow-up starts a turn of its own (R-TURN-7: queued when a turn ended). */
  private startQueued(): void {
    const next = this.core.followUps.start();
    if (next) next.settle(this.send({ type: "prompt", content: next.content }));
  }

  /** A turn; the follow-ups that joined it settle with its outcome. */
  private async turn(run: Promise<TurnOutcome>): Promise<TurnOutcome> {
    const outcome = run.catch(() => undefined);
    try {
      return await run;
    } finally {
      this.core.followUps.settleJoined(outcome);
    }
  }

  /** A unified diff of what this session (or one turn) changed in the files (R-CKPT-3). */
  diff(opts: { turn?: number; color: boolean }): Promise<string> {
    return sessionDiff(this.core, opts);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.cancel({ queue: "drop" });
    await this.tail;
    // R-JOB-2: every job's process group ends before the record closes and tern may exit.
    await this.core.jobs?.close();
    await this.onClose();
    // A killed command's TERM-ignoring children get SIGKILL before tern may exit (R-BASH-1).
    await settleProcessKills();
  }

  private async execute(command: SessionCommand): Promise<unknown> {
    if (this.closed) throw new Error("session is closed");
    const controller = new AbortController();
    this.running = controller;
    try {
      switch (command.type) {
        case "prompt":
          return await promptTurn(this.core, command, controller.signal, (run) => this.turn(run));
        case "retry":
          return await this.turn(runTurn(this.core, { content: [], retry: true }, controller.signal));
        case "clear":
          await this.core.jobs?.endAll();
          this.core.commit({ type: "cleared" });
          // R-REC-5: images only the cleared part mentioned go now; the archive export shows a placeholder.
          pruneClearedImages(this.core.dir, this.core.fold.archive);
          this.core.hookPoints?.sessionStart("clear");
          return undefined;
        case "yolo_once":
          this.core.policy.setYoloOnce(true);
          return undefined;
        case "set_mode":
          this.core.policy.setMode(command.mode);
          return undefined;
        case "rewind":
          if (!Number.isInteger(command.turn) || command.turn < 0 || command.turn > this.core.fold.lastTurn)
            throw new RangeError(`rewind: no turn ${command.turn} (turns 0..${this.core.fold.lastTurn})`);
          this.core.commit({ type: "rewound", toTurn: command.turn });
          return undefined;
        case "set_model":
          this.core.switchModel(command.model);
          return undefined;
        case "compact":
          await this.core.hookPoints?.preCompact("manual");
          return await (await loadCompaction()).compactNow(this.core, controller.signal);
        default:
          // The commands on the files' checkpoints (FileCommand): undo, rewind_files, restore_files, redo.
          return await runUndoCommand(this.core, command);
      }
    } finally {
      this.running = undefined;
    }
  }
}
