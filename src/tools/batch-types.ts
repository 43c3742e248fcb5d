// What a tool batch's caller (the engine, a front end) and the executor speak of: the calls that
// ask, the answers, and the hooks the executor reports through.
import type { ToolCall } from "../vocab/messages.js";
import type { CallHookDecision } from "./call-hooks.js";
import type { OutputLimits } from "./output-limit.js";
import type { CallPresentation, ToolKind, ToolResult } from "./types.js";

export type ApprovalAnswer = "approved" | "denied" | "always";

/** A call whose decision is "ask", as shown to the person deciding. */
export interface PendingCall {
  call: ToolCall;
  id: string;
  name: string;
  /** The raw JSON arguments, as the model sent them (for display). */
  arguments: string;
  args: unknown;
  kind: ToolKind;
  paths: string[];
  /** Why it asks even though a rule or mode might allow it (e.g. a write outside the workspace). */
  reason?: string;
  /** What answering `always` would cover from now on (R-TOOL-2: the prompt says so). */
  always?: string;
  /** How the call shows itself (title, kind, files, preview), from its tool. */
  presentation: CallPresentation;
  /** Set when a sub-agent asks (R-AGENT-1): its agent's name and its session id. */
  agent?: { name: string; session: string };
}

export interface BatchHooks {
  /** PreToolUse hooks, after deny rules and before approval: a deny beats allow rules, grants and --yes. */
  beforeCall?(call: ToolCall, args: unknown): Promise<CallHookDecision | undefined>;
  /** PostToolUse hooks, after a call ran: text appended to the result the model sees. */
  afterCall?(call: ToolCall, args: unknown, result: ToolResult): Promise<string | undefined>;
  /** Asked once per batch with every call whose decision is "ask"; returns the decision per call id. */
  approve(calls: PendingCall[]): Promise<Map<string, ApprovalAnswer>>;
  /** Result text for a call answered "denied" (default `denied by user`); `tern run` without --yes says why. */
  denialMessage?: string;
  /** For every call that was asked about, and for calls a deny rule refused. */
  onDecision?(id: string, decision: "approved" | "denied"): void;
  /**
   * Once approval is over, right before the batch's calls run: the calls that will run, each
   * with the absolute paths its tool names (the engine keeps their files' pre-images, R-CKPT-4).
   */
  beforeRun?(calls: RunningCall[]): Promise<void>;
  /** Right before a call runs (the engine writes tool_start). */
  onStart(call: ToolCall): void;
  /**
   * As each call finishes (not in call order), with the exact value the model will see: redacted
   * and capped (R-TOOL-6). The engine writes tool_result at once (R-TOOL-3).
   */
  onResult(call: ToolCall, result: ToolResult, index: number): void;
}

/** A call about to run, as `beforeRun` sees it. */
export interface RunningCall {
  id: string;
  name: string;
  kind: ToolKind;
  /** Absolute paths of the files its tool says it touches. */
  paths: string[];
}

export interface ToolExecutorOptions {
  parallel: boolean;
  limits?: OutputLimits;
}
