// Record line types of record.jsonl (SPEC §6). Documented field by field in docs/record-format.md.
import type { ToolOutcome } from "../tools/types.js";
import type { ProviderItem, ReasoningField, ThinkingBlock, ToolCall, ToolSpec } from "../vocab/messages.js";
import type { Usage } from "../vocab/usage.js";

export const RECORD_VERSION = 1;

/** In the record an image is stored once under attachments/ and referenced by content hash. */
export interface RecordImagePart {
  type: "image";
  mediaType: string;
  ref: string;
}
export interface RecordTextPart {
  type: "text";
  text: string;
}
export type RecordContentPart = RecordTextPart | RecordImagePart;

export interface RecordBase {
  v: number;
  seq: number;
  /** ISO-8601 time of commit. */
  ts: string;
}

export interface SessionStartRecord extends RecordBase {
  type: "session_start";
  id: string;
  cwd: string;
  model: string;
  /**
   * Set on forks: the parent session, the turn the copy ends with, and `seq`, the last line of
   * this record that was copied (those lines' usage is billed to the parent, R-REC-8).
   */
  parent?: ForkParent;
}
export interface ForkParent {
  session: string;
  turn: number;
  seq?: number;
  /** Set on a sub-agent's session (R-AGENT-1): the agent it ran and the parent's `task` call id. */
  agent?: string;
  call?: string;
}
export interface ContextRecord extends RecordBase {
  type: "context";
  system: string;
  tools: ToolSpec[];
  /** What the system prompt was made of (R-WF-1): instruction files and skills, with token estimates. */
  sources?: ContextSource[];
}
export interface ContextSource {
  kind: "instructions" | "skill";
  path: string;
  tokens: number;
}
export interface UserPromptRecord extends RecordBase {
  type: "user_prompt";
  turn: number;
  content: RecordContentPart[];
}
export interface AssistantMessageRecord extends RecordBase {
  type: "assistant_message";
  turn: number;
  round: number;
  text: string;
  reasoning: string;
  thinkingBlocks?: ThinkingBlock[];
  /** Which wire field carried `reasoning`, so it can be echoed back in it (R-PROV-3). */
  reasoningField?: ReasoningField;
  /** Reasoning items and hosted-tool blocks, echoed back exactly to the protocol that sent them. */
  providerItems?: ProviderItem[];
  toolCalls: ToolCall[];
  finish: string;
  rawFinish: string | null;
  usage: Usage | null;
  model: string;
  /** Requests this round sent (failed attempts included); absent = 1. */
  attempts?: number;
  /** Summed usage the round's failed attempts reported (billed, never shown); absent = none. */
  failedUsage?: Usage;
}
export interface ToolStartRecord extends RecordBase {
  type: "tool_start";
  turn: number;
  id: string;
  name: string;
}
export interface ToolResultRecord extends RecordBase {
  type: "tool_result";
  turn: number;
  id: string;
  name: string;
  outcome: ToolOutcome;
  content: RecordContentPart[];
  /** `bash` only: true when the command ran inside the OS sandbox, false when it ran outside it. */
  sandboxed?: boolean;
}
export interface NoticeRecord extends RecordBase {
  type: "notice";
  turn: number;
  text: string;
}
export interface CompactionRecord extends RecordBase {
  type: "compaction";
  stage: "shed" | "summarize";
  /** Inclusive seq range of the records this compaction replaces in the model context. */
  fromSeq: number;
  toSeq: number;
  summary?: string;
  /** Shed stage: replacement text per replaced line seq (see docs/record-format.md). */
  placeholders?: Record<string, string>;
  /** Shed stage: per assistant_message seq, replacement arguments (JSON text) per tool call id. */
  arguments?: Record<string, Record<string, string>>;
  beforeTokens: number;
  afterTokens: number;
  /** Summarize: usage of the summary request, every attempt summed. */
  usage?: Usage | null;
  /** Summarize: requests the summary sent (failed attempts included); absent = 1 when `usage` is set. */
  modelCalls?: number;
  /** Only on a compaction run outside a turn (`/compact`): its own ledger row (R-REC-8). */
  bill?: CompactionBill;
  /** Summarize: the summary request failed after reporting usage; no summary, the line carries only the bill. */
  failed?: string;
}
export interface CompactionBill {
  /** USD, priced when written; `null` = unknown price. */
  cost: number | null;
  startedAt: string;
  durationMs: number;
  /** The model that wrote the summary. */
  model: string;
}
export interface TurnEndRecord extends RecordBase {
  type: "turn_end";
  turn: number;
  stopReason: string;
  rounds: number;
  modelCalls: number;
  toolCalls: number;
  toolErrors: number;
  usage: Usage;
  /** USD; `null` = unknown price. */
  cost: number | null;
  durationMs: number;
  startedAt: string;
  error?: { class: string; status?: number; message: string };
}
export interface ClearedRecord extends RecordBase {
  type: "cleared";
}
export interface RewoundRecord extends RecordBase {
  type: "rewound";
  /** Turns after this one are withdrawn from the model context. */
  toTurn: number;
}
export interface ConfigRecord extends RecordBase {
  type: "config";
  model: string;
}
/** A snapshot of the workspace files in the shadow repository (round 0 = before the turn). */
export interface CheckpointRecord extends RecordBase {
  type: "checkpoint";
  turn: number;
  round: number;
  /** Git tree hash in the workspace's shadow repository. */
  tree: string;
  /**
   * The session's first snapshot of a big workspace, taken while a tool batch that wrote ran
   * beside it (R-CKPT-4): it may hold files as that batch left them, not as they were before.
   */
  duringTools?: true;
}
/** `tern undo`: files restored to `restored`; turns after `toTurn` withdrawn from the model context. */
export interface UndoRecord extends RecordBase {
  type: "undo";
  toTurn: number;
  /** The workspace as it was just before the undo (what `redo` puts back). */
  tree: string;
  /** The snapshot the files were restored to. */
  restored: string;
  /**
   * The files only (the rewind picker's "files only", `/rewind N files-only`, R-UI-29): no turn is
   * withdrawn; the next prompt's request tells the model which files were restored.
   */
  filesOnly?: true;
  /** With `filesOnly`: the paths restored (at most 50) and how many there were in all. */
  paths?: string[];
  pathCount?: number;
}
/** One hook run (R-HOOK-4): what ran, how it exited, what it decided. Changes no context. */
export interface HookRecord extends RecordBase {
  type: "hook";
  event: string;
  command: string;
  exit: number | null;
  decision: string;
  durationMs: number;
}
/** `tern redo`: the newest undo taken back: its files put back and its turns returned to the context. */
export interface RedoRecord extends RecordBase {
  type: "redo";
  restored: string;
  /** The undo taken back was a files-only restore: no turn returns, the phase stays. */
  filesOnly?: true;
}

/** A background job started (R-JOB-2). */
export interface JobStartRecord extends RecordBase {
  type: "job_start";
  id: string;
  command: string;
  pid: number;
  /** The job's full output log, relative to the session folder. */
  log: string;
  /** The process tag (TERN_TOOL_PROCESS) of its processes: a resume after a crash stops them by it. */
  tag?: string;
}
/** A background job ended: on its own, by job_kill, or with its session (R-JOB-2). */
export interface JobEndRecord extends RecordBase {
  type: "job_end";
  id: string;
  /** The exit code, or the name of the signal that ended it. */
  status: number | string;
  reason: "exited" | "killed" | "session_ended";
}

export type RecordLine =
  | SessionStartRecord
  | ContextRecord
  | UserPromptRecord
  | AssistantMessageRecord
  | ToolStartRecord
  | ToolResultRecord
  | NoticeRecord
  | CompactionRecord
  | TurnEndRecord
  | ClearedRecord
  | RewoundRecord
  | ConfigRecord
  | CheckpointRecord
  | UndoRecord
  | RedoRecord
  | JobStartRecord
  | JobEndRecord
  | HookRecord;

export type RecordType = RecordLine["type"];

/** A record before `v`, `seq` and `ts` are stamped by the writer. */
export type NewRecord = RecordLine extends infer R
  ? R extends RecordLine
    ? Omit<R, "v" | "seq" | "ts">
    : never
  : never;

export type Phase =
  | "ReadyForUser"
  | "AwaitingAssistantAfterUser"
  | "AwaitingToolResults"
  | "AwaitingAssistantAfterToolResults";

export type StopReason =
  | "completed"
  | "cancelled"
  | "failed"
  | "output_truncated"
  | "content_filtered"
  | "context_overflow"
  | "tool_call_limit_reached"
  | "model_call_limit_reached"
  | "duration_limit_reached"
  /** R-PROV-17: the turn's cost reached `maximumCostUsd` / `--max-budget-usd`. */
  | "cost_limit_reached"
  | "output_invalid"
  | "aborted";
