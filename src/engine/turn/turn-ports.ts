// What the turn loop needs from its session, and nothing more: commit records, stream one
// round's request, run a tool batch, compact, publish events. `turn.ts` wires a live session to
// it; unit tests wire plain objects.
import type { ExecutionBudget } from "../../config/types.js";
import type { StreamResult } from "../../provider/types.js";
import type { ToolResult } from "../../tools/types.js";
import type { OnLimit } from "./budget.js";
import type { OutputContract } from "../door/commands.js";
import type { RoundAttempts, TurnEndFacts } from "../committer.js";
import type { EngineEvent } from "../door/events.js";
import type { ContentPart, ToolCall } from "../../vocab/messages.js";
import type { Pricing } from "../../vocab/cost.js";
import type { Usage } from "../../vocab/usage.js";

export interface TurnInput {
  content: ContentPart[];
  /** `/retry`: continue the last turn with its committed user message instead of a new one. */
  retry?: boolean;
  /** `/compact` before the first round (`tern run --compact`): both stages, whatever the size. */
  compactFirst?: boolean;
  /** `--output-schema` (R-AUTO-1): what the final answer must be. */
  output?: OutputContract;
  /** Notes committed right after the prompt (what hooks added to the context, R-HOOK-2). */
  notes?: string[];
  /** A custom command's `allowed-tools` (R-WF-2): allow rules for this turn only. */
  allow?: string[];
}

/** What a model call needs from the loop: count each attempt, add each usage report. */
export interface StreamHooks {
  onAttemptStart(): void;
  onUsage(usage: Usage): void;
}

/** Everything the loop needs from its session: commit, stream, run a batch, compact, publish. */
export interface TurnPorts {
  readonly executionBudget: ExecutionBudget;
  /** The model's prices, for the spending cap (R-PROV-17); absent or undefined = unknown. */
  pricing?(): Pricing | undefined;
  readonly maxTruncationContinues: number;
  readonly onLimit?: OnLimit;
  /** The newest turn in the record (0 before the first). */
  lastTurn(): number;
  /** The turn whose `yyy` answer still holds: a `/retry` of that turn keeps it (R-BUD-3). */
  autoContinueTurn: number | undefined;
  publish(event: EngineEvent): void;
  /** Per-turn state that starts afresh (read-before-edit) and `/yolo once`, which covers one turn. */
  beginTurn(): void;
  endYoloOnce(): void;
  commitUserPrompt(turn: number, content: ContentPart[]): void;
  commitAssistant(turn: number, round: number, result: StreamResult, spent: RoundAttempts): void;
  commitNotice(turn: number, text: string): void;
  addTodoReminderIfOwed(turn: number): void;
  commitQueuedFollowUp(turn: number): Promise<void>;
  quiesce(reason: "cancelled" | "replied"): void;
  /** Commits (when `recorded`) and announces the turn's end; returns the facts as announced. */
  commitTurnEnd(end: TurnEndFacts, recorded: boolean): TurnEndFacts;
  noteTodoUse(usedTodoTool: boolean): void;
  /** One round's model call, retried per policy; rejects with the provider's error. */
  stream(
    round: number,
    signal: AbortSignal,
    deadline: number | null,
    hooks: StreamHooks,
  ): Promise<RoundAnswer>;
  runBatch(turn: number, calls: ToolCall[], signal: AbortSignal): Promise<ToolResult[]>;
  /** Whether the context is over the compaction threshold. */
  overBudget(): boolean;
  /** Compact; returns why the turn must stop, or undefined to go on. */
  compact(
    why: "threshold" | "overflow" | "manual",
    signal: AbortSignal,
    hooks: StreamHooks,
  ): Promise<string | undefined>;
  /** Stop hooks (R-HOOK-2): the note that keeps the turn going, or undefined to let it end. */
  stopHook?: (active: boolean) => Promise<string | undefined>;
  /** The plan `exit_plan` delivered as the answer in this batch (R-PLAN-1), taken once; ends the turn. */
  takeDeliveredPlan?: () => string | undefined;
  /** Waits for MCP servers still starting and brings the tool list up to date, before each round. */
  syncTools?: (signal: AbortSignal) => Promise<void>;
  /** File snapshots for undo, when switched on. */
  checkpoints?: {
    beforeTurn(turn: number): void;
    /** Takes the turn's "before" snapshot if still owed, and waits for snapshots in flight (not for a read-only batch). */
    beforeBatch(calls?: readonly ToolCall[]): Promise<void>;
    settle(): Promise<void>;
    afterBatch(turn: number, round: number, calls: readonly ToolCall[], results: readonly ToolResult[]): void;
  };
}

export interface RoundAnswer {
  result: StreamResult;
  spent: RoundAttempts;
}
