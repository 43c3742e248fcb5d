// Engine events. Their shape IS the `--json` contract of R-CLI-3 (snake_case), so the run
// front end prints them as they are. More fields may be added; none renamed. Fields with a closed
// set of values are typed by the union that defines them, so front ends switch without casts.
import type { RecordLine, StopReason } from "../../record/types.js";
import type { CallPresentation, ToolOutcome } from "../../tools/types.js";
import type { TurnErrorClass } from "./outcome.js";
import type { LimitName } from "./requests.js";

export type { CallKind, CallPresentation, CallPreview } from "../../tools/types.js";

/** The stage a `compaction` event reports (SPEC §7): as its record line says. */
export type CompactionStage = Extract<RecordLine, { type: "compaction" }>["stage"];

export interface UsageFields {
  prompt: number;
  completion: number;
  cache_read: number;
  cache_write: number;
}

export interface ToolCallFields {
  id: string;
  name: string;
  arguments: string;
}

/**
 * What happened to the follow-up queue (R-TURN-7, R-UI-1): `queued` (sent while busy), `joined`
 * (committed into the running turn after a tool batch), `started` (began the next turn),
 * `taken_back` (out again, to be edited), `dropped` (a session switch, close or ACP cancel),
 * `held` / `released` (an interrupt kept the queue; it waits until released).
 */
export type FollowUpChange = "queued" | "joined" | "started" | "taken_back" | "dropped" | "held" | "released";

export type EngineEvent =
  | { type: "session"; id: string; cwd: string; model: string; resumed: boolean }
  | { type: "turn_start"; turn: number }
  | { type: "round_start"; turn: number; round: number }
  | { type: "text_delta"; text: string }
  | { type: "reasoning_delta"; text: string }
  | { type: "stream_discarded"; round: number; attempt: number }
  | {
      type: "assistant_message";
      text: string;
      reasoning: string;
      tool_calls: ToolCallFields[];
      finish_reason: string;
    }
  | {
      type: "retry_scheduled";
      attempt: number;
      delay_ms: number;
      reason: string;
      status: number | null;
      message: string;
    }
  /** `presentation`: how the call shows itself (its tool's own words), for front ends to draw. */
  | ({ type: "tool_call"; presentation: CallPresentation } & ToolCallFields)
  /** A tool the provider ran itself (web search, R-PROV-11): shown only, never run or approved here. */
  | { type: "hosted_tool"; name: string; status: "started" | "done"; detail: string }
  | { type: "approval"; id: string; decision: "approved" | "denied" }
  /** A running call reported how far it got (MCP progress notifications). */
  | { type: "tool_progress"; id: string; name: string; progress: number; total?: number; message?: string }
  /**
   * A running call's output so far (R-UI-18): its last characters and how many lines it has
   * printed, at most ~10 a second per call. For the terminal UI only: `--json` leaves it out.
   */
  | { type: "tool_output"; id: string; name: string; tail: string; lines: number }
  | { type: "tool_result"; id: string; name: string; outcome: ToolOutcome; content: string }
  | ({ type: "usage" } & UsageFields)
  /** `cost`: only on a `/compact` summary outside a turn, which has its own ledger row. */
  | {
      type: "compaction";
      stage: CompactionStage;
      before_tokens: number;
      after_tokens: number;
      cost?: number | null;
    }
  | { type: "notice"; text: string }
  /** An edited file's diagnostics from its language server (R-LSP-4); `path` as the model saw it. */
  | { type: "lsp_diagnostics"; path: string; errors: number; warnings: number }
  | { type: "limit_reached"; limit: LimitName; used: number; allowed: number }
  | {
      type: "turn_end";
      turn: number;
      stop_reason: StopReason;
      rounds: number;
      model_calls: number;
      tool_calls: number;
      tool_errors: number;
      usage: UsageFields;
      cost: number | null;
      duration_ms: number;
      /** Rounds whose answer asked for tools, also when a limit kept them from running (R-UI-9's `rounds=N`). */
      tool_rounds: number;
      error?: { class: TurnErrorClass; status?: number; message: string };
    }
  | { type: "error"; class: TurnErrorClass; status?: number; message: string }
  /** R-JOB-2: a background job started / ended (`status`: exit code or signal name). */
  | { type: "job_start"; id: string; command: string; pid: number }
  | { type: "job_end"; id: string; status: number | string; reason: string; command: string }
  /** One hook run (R-HOOK-4). */
  | {
      type: "hook";
      event: string;
      command: string;
      exit_code: number | null;
      decision: string;
      duration_ms: number;
    }
  /**
   * The follow-up queue changed (follow-ups.ts). Only a session someone queues into emits it, so
   * `tern run`'s stream never carries it. `queued` is the whole queue after the change, oldest first.
   */
  | {
      type: "follow_up";
      change: FollowUpChange;
      follow_up?: { id: number; text: string };
      /** The running turn a follow-up joined. */
      turn?: number;
      queued: { id: number; text: string }[];
      held: boolean;
    };

export type EngineEventType = EngineEvent["type"];

/** What `Session.subscribe` calls with each event, in commit order. */
export type Listener = (event: EngineEvent) => void;
