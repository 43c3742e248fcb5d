// The state of one session's engine task and the only place that commits records: every
// commit is fully checked by the fold before it is written, then folded (`commit.ts`).
import type { Config, ResolvedModel } from "../config/types.js";
import { computeCost } from "../config/pricing.js";
import { scrubbedEnv } from "../config/secrets.js";
import type {
  ContentPart,
  ImagePart,
  Message,
  NormalizedRequest,
  ProviderAdapter,
  StreamResult,
  ToolSpec,
  Usage,
} from "../provider/types.js";
import { loadImage, storeImage } from "../record/attachments.js";
import type { RecordFold } from "../record/fold.js";
import { quiesce } from "../record/quiesce.js";
import type { NewRecord, RecordContentPart, RecordLine, StopReason } from "../record/types.js";
import type { RecordWriter } from "../record/writer.js";
import type { ApprovalPolicy } from "../tools/approval.js";
import type { ToolSets } from "../tools/mcp.js";
import type { BatchHooks, ToolExecutor } from "../tools/executor.js";
import type { ReadTracker, ShellSandbox, TodoItem, ToolResult } from "../tools/types.js";
import type { OnLimit } from "./budget.js";
import type { Checkpointer } from "./checkpoints.js";
import { commitChecked } from "./commit.js";
import { toUsageFields } from "./convert.js";
import type { EngineEvent } from "./events.js";
import type { TurnError } from "./stop.js";

export interface SessionHooks {
  /** Decides the calls of a batch that need asking (R-TOOL-2). */
  approve: BatchHooks["approve"];
  /** Budget prompt (R-BUD-3); absent = never continue (tern run). */
  onLimit?: OnLimit;
  /** Result text for calls the front end denied (default: `denied by user`). */
  denialMessage?: string;
  /**
   * R-UI-1, R-TURN-7: called after each completed tool batch of a running turn; content it returns
   * is committed as a user message of the current turn, before the next round. The front end
   * keeps its own queue and sends what is still queued at the turn's end as the next prompt.
   */
  takeFollowUp?: () => ContentPart[] | undefined;
  /**
   * A person can answer an approval: a command that failed in the sandbox is offered to run again
   * outside it, through `approve` (R-SBX-3). `tern run` leaves it unset: it never leaves the sandbox.
   */
  offersOutsideSandbox?: boolean;
}

/** What a round's request cost beyond its answer: retried attempts (R-PROV-6, R-REC-8). */
export interface RoundAttempts {
  /** Requests the round sent, the answered one included. */
  attempts: number;
  /** Usage the failed attempts reported, summed; null when none did. */
  failedUsage: Usage | null;
}

/** What a turn's `turn_end` records about its run. */
export interface TurnEndFacts {
  turn: number;
  stopReason: StopReason;
  rounds: number;
  modelCalls: number;
  toolCalls: number;
  toolErrors: number;
  usage: Usage;
  durationMs: number;
  startedAt: string;
  error?: TurnError;
}

export interface SessionCoreInit {
  id: string;
  dir: string;
  cwd: string;
  settings: Config;
  model: ResolvedModel;
  adapter: ProviderAdapter;
  fold: RecordFold;
  writer: RecordWriter;
  executor: ToolExecutor;
  policy: ApprovalPolicy;
  readTracker: ReadTracker;
  system: string;
  tools: ToolSpec[];
  hooks: SessionHooks;
  publish(event: EngineEvent): void;
}

export class SessionCore {
  readonly id: string;
  readonly dir: string;
  readonly cwd: string;
  readonly settings: Config;
  model: ResolvedModel;
  adapter: ProviderAdapter;
  readonly fold: RecordFold;
  readonly executor: ToolExecutor;
  readonly policy: ApprovalPolicy;
  readonly readTracker: ReadTracker;
  readonly hooks: SessionHooks;
  /** The OS sandbox `bash` runs in; absent when `sandbox.mode` is off. */
  sandbox: ShellSandbox | undefined;
  readonly publish: (event: EngineEvent) => void;
  system: string;
  tools: ToolSpec[];
  lastRoundUsage: Usage | null = null;
  /** The turn whose `yyy` answer still holds: a `/retry` of that turn keeps it (R-BUD-3). */
  autoContinueTurn: number | undefined;
  /** Called after every committed line the ledger bills: a turn_end, a `/compact` summary (R-REC-8). */
  onBilled: ((line: RecordLine) => void) | undefined;
  /** MCP servers of this session (absent when none is configured). */
  toolSets: ToolSets | undefined;
  /** Waits for MCP servers still starting and brings the tool list up to date (tool-sync.ts). */
  syncTools: ((signal: AbortSignal) => Promise<void>) | undefined;
  /** File snapshots for undo; absent when switched off. */
  checkpoints: Checkpointer | undefined;
  private readonly writer: RecordWriter;
  private readonly imageCache = new Map<string, string>();
  private todoList: TodoItem[] = [];
  private todoReminderOwed = false;

  constructor(init: SessionCoreInit) {
    this.id = init.id;
    this.dir = init.dir;
    this.cwd = init.cwd;
    this.settings = init.settings;
    this.model = init.model;
    this.adapter = init.adapter;
    this.fold = init.fold;
    this.writer = init.writer;
    this.executor = init.executor;
    this.policy = init.policy;
    this.readTracker = init.readTracker;
    this.system = init.system;
    this.tools = init.tools;
    this.hooks = init.hooks;
    this.publish = init.publish;
  }

  /** The environment tool processes get: provider keys and secret-looking variables removed (R-CFG-3). */
  get toolEnv(): NodeJS.ProcessEnv {
    this._toolEnv ??= scrubbedEnv(process.env, this.settings);
    return this._toolEnv;
  }
  private _toolEnv: NodeJS.ProcessEnv | undefined;

  /** Append one record the fold fully accepts; the fold follows every line. */
  commit(record: NewRecord): RecordLine {
    return commitChecked(this.fold, this.writer, record);
  }

  commitUserPrompt(turn: number, content: ContentPart[]): void {
    this.commit({ type: "user_prompt", turn, content: this.storeContent(content) });
  }

  commitNotice(turn: number, text: string): void {
    this.commit({ type: "notice", turn, text });
    this.publish({ type: "notice", text });
  }

  commitAssistant(turn: number, round: number, result: StreamResult, spent?: RoundAttempts): void {
    this.commit({
      type: "assistant_message",
      turn,
      round,
      text: result.text,
      reasoning: result.reasoning,
      ...(result.thinkingBlocks.length > 0 ? { thinkingBlocks: result.thinkingBlocks } : {}),
      ...(result.reasoningField ? { reasoningField: result.reasoningField } : {}),
      ...(result.providerItems?.length ? { providerItems: result.providerItems } : {}),
      toolCalls: result.toolCalls,
      finish: result.finish,
      rawFinish: result.rawFinish,
      usage: result.usage,
      model: this.model.id,
      ...(spent && spent.attempts !== 1 ? { attempts: spent.attempts } : {}),
      ...(spent?.failedUsage ? { failedUsage: spent.failedUsage } : {}),
    });
    this.publish({
      type: "assistant_message",
      text: result.text,
      reasoning: result.reasoning,
      tool_calls: result.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
      finish_reason: result.finish,
    });
  }

  commitToolStart(turn: number, id: string, name: string): void {
    this.commit({ type: "tool_start", turn, id, name });
  }

  commitToolResult(turn: number, id: string, name: string, result: ToolResult): void {
    this.commit({
      type: "tool_result",
      turn,
      id,
      name,
      outcome: result.outcome,
      content: this.storeContent(result.content),
      ...(result.sandboxed !== undefined ? { sandboxed: result.sandboxed } : {}),
    });
  }

  /** R-TURN-7: a follow-up the front end hands over joins the running turn after a tool batch. */
  commitQueuedFollowUp(turn: number): void {
    const next = this.hooks.takeFollowUp?.();
    if (next && next.length > 0) this.commitUserPrompt(turn, next);
  }

  /** R-REC-3: answer every committed call that has no result, so a fresh prompt is admissible. */
  quiesce(reason: "cancelled" | "replied" | "failed" | "session_ended"): void {
    for (const record of quiesce(this.fold, reason)) this.commit(record);
  }

  commitTurnEnd(end: TurnEndFacts): void {
    const cost = computeCost(end.usage, this.model.info.pricing);
    const line = this.commit({ type: "turn_end", ...end, cost, ...(end.error ? { error: end.error } : {}) });
    this.onBilled?.(line);
    this.publish({
      type: "turn_end",
      turn: end.turn,
      stop_reason: end.stopReason,
      rounds: end.rounds,
      model_calls: end.modelCalls,
      tool_calls: end.toolCalls,
      tool_errors: end.toolErrors,
      usage: toUsageFields(end.usage),
      cost,
      duration_ms: end.durationMs,
      ...(end.error ? { error: end.error } : {}),
    });
  }

  get todos(): { get(): TodoItem[]; set(items: TodoItem[]): void } {
    return {
      get: () => this.todoList,
      set: (items) => {
        this.todoList = items;
      },
    };
  }

  /**
   * The todo list outlives turns and processes: it is the last successful todo_write in the
   * archive. A resumed session also owes the review reminder its last turn would have left.
   */
  restoreTodos(): void {
    const okResults = new Set<string>();
    let latest: TodoItem[] | undefined;
    const lines = this.fold.archive;
    for (let i = lines.length - 1; i >= 0 && latest === undefined; i--) {
      const line = lines[i];
      if (line.type === "tool_result" && line.name === "todo_write" && line.outcome === "ok")
        okResults.add(line.id);
      if (line.type === "assistant_message") {
        for (const call of line.toolCalls) {
          if (call.name !== "todo_write" || !okResults.has(call.id)) continue;
          try {
            latest = (JSON.parse(call.arguments) as { todos: TodoItem[] }).todos;
          } catch {}
        }
      }
    }
    this.todoList = latest ?? [];
    const lastEnd = lines.findLast((l) => l.type === "turn_end");
    if (lastEnd?.type === "turn_end") {
      const usedTodoTool = lines.some(
        (l) =>
          l.type === "assistant_message" &&
          l.turn === lastEnd.turn &&
          l.toolCalls.some((c) => c.name === "todo_write"),
      );
      this.noteTodoUse(usedTodoTool);
    }
  }

  /** R-TODO: a turn that ended with open items and never touched the list owes a reminder. */
  noteTodoUse(usedTodoTool: boolean): void {
    this.todoReminderOwed = !usedTodoTool && this.todoList.some((t) => t.status !== "completed");
  }

  addTodoReminderIfOwed(turn: number): void {
    if (!this.todoReminderOwed) return;
    this.todoReminderOwed = false;
    const open = this.todoList
      .filter((t) => t.status !== "completed")
      .map((t) => `- [${t.status}] ${t.content}`);
    this.commitNotice(
      turn,
      `Reminder: your todo list still has open items. Review it and update it with todo_write if needed:\n${open.join("\n")}`,
    );
  }

  /** The request for the next round, from a snapshot of the model context (R-TURN-1). */
  buildRequest(): NormalizedRequest {
    return {
      model: this.model.name,
      system: this.system,
      tools: this.tools,
      messages: this.hydrateMessages(this.fold.messages),
      maxOutputTokens: this.model.info.maxOutputTokens,
      images: this.model.info.images,
      ...modelRequestFields(this.model, this.id),
    };
  }

  /** Images in the fold carry only their attachment ref; load their bytes once and reuse them. */
  hydrateMessages(messages: readonly Message[]): Message[] {
    const needs = messages.some((m) => m.role !== "assistant" && m.content.some((p) => p.type === "image"));
    if (!needs) return messages as Message[];
    return messages.map((m) => {
      if (m.role === "assistant" || !m.content.some((p) => p.type === "image")) return m;
      return { ...m, content: m.content.map((p) => (p.type === "image" ? this.hydrateImage(p) : p)) };
    });
  }

  private hydrateImage(part: ImagePart): ContentPart {
    if (part.data || !part.ref) return part;
    let data = this.imageCache.get(part.ref);
    if (data === undefined) {
      const loaded = loadImage(this.dir, part.ref);
      if (!loaded) return { type: "text", text: `[image ${part.ref} is no longer available]` };
      data = loaded.data;
      this.imageCache.set(part.ref, data);
    }
    return { ...part, data };
  }

  /** Images go to attachments/ once (by content hash); the record keeps only the ref. */
  private storeContent(content: ContentPart[]): RecordContentPart[] {
    return content.map((part) => {
      if (part.type === "text") return part;
      const ref = part.ref ?? storeImage(this.dir, Buffer.from(part.data, "base64"), part.mediaType);
      this.imageCache.set(ref, part.data);
      return { type: "image", mediaType: part.mediaType, ref };
    });
  }
}

/** What the model's settings add to every request: thinking level, hosted tools, cache key (R-PROV-9..11). */
export function modelRequestFields(
  model: ResolvedModel,
  sessionId: string,
): Pick<NormalizedRequest, "thinking" | "hostedTools" | "cacheKey"> {
  const fields: Pick<NormalizedRequest, "thinking" | "hostedTools" | "cacheKey"> = { cacheKey: sessionId };
  if (model.thinking !== "off") fields.thinking = model.thinking;
  if (model.hostedTools.length > 0) fields.hostedTools = [...model.hostedTools];
  return fields;
}
