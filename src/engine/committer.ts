// The session's record writer in the engine's words: each commit goes through `commitChecked`
// (the fold's full check, the write, the fold), and the ones front ends hear about are mapped
// to their `--json` event here, in one place.
import type { ResolvedModel } from "../config/types.js";
import type { StreamResult } from "../provider/types.js";
import { DiskError } from "../record/errors.js";
import type { RecordFold } from "../record/fold.js";
import { quiesce } from "../record/quiesce.js";
import type { NewRecord, RecordContentPart, RecordLine, StopReason } from "../record/types.js";
import type { RecordWriter } from "../record/writer.js";
import type { ToolResult } from "../tools/types.js";
import { commitChecked } from "./commit.js";
import { toUsageFields } from "./event-fields.js";
import type { EngineEvent } from "./door/events.js";
import type { TurnError } from "./door/outcome.js";
import { computeCost } from "../vocab/cost.js";
import type { ContentPart } from "../vocab/messages.js";
import type { Usage } from "../vocab/usage.js";

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
  /** USD of the turn's requests each priced alone (R-PROV-16 tiers); absent = priced from `usage`. */
  cost?: number | null;
  durationMs: number;
  startedAt: string;
  error?: TurnError;
  /** Rounds that asked for tools: announced (`tool_rounds`), not recorded. */
  toolRounds?: number;
}

export interface CommitterInit {
  fold: RecordFold;
  writer: RecordWriter;
  publish(event: EngineEvent): void;
  /** The model answering now: its id goes on assistant lines, its price on turn_end. */
  model(): ResolvedModel;
  /** Content as the record keeps it (images by attachment ref). */
  storeContent(content: ContentPart[]): RecordContentPart[];
  /** After every committed line the ledger bills: a turn_end (R-REC-8). */
  onBilled(line: RecordLine): void;
}

export class RecordCommitter {
  constructor(private readonly init: CommitterInit) {}

  /** A turn_end the disk refused: written (with answers to the calls it left open) before the next line. */
  private owedEnd: (Omit<TurnEndFacts, "toolRounds"> & { cost: number | null }) | undefined;

  /** Append one record the fold fully accepts; the fold follows every line. */
  commit(record: NewRecord): RecordLine {
    const owed = this.owedEnd;
    if (owed) {
      for (const answer of quiesce(this.init.fold, "failed")) this.write(answer);
      this.init.onBilled(this.write({ type: "turn_end", ...owed }));
      this.owedEnd = undefined;
    }
    return this.write(record);
  }

  private write(record: NewRecord): RecordLine {
    return commitChecked(this.init.fold, this.init.writer, record);
  }

  userPrompt(turn: number, content: ContentPart[]): void {
    this.commit({ type: "user_prompt", turn, content: this.init.storeContent(content) });
  }

  notice(turn: number, text: string): void {
    this.commit({ type: "notice", turn, text });
    this.init.publish({ type: "notice", text });
  }

  assistant(turn: number, round: number, result: StreamResult, spent?: RoundAttempts): void {
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
      model: this.init.model().id,
      ...(spent && spent.attempts !== 1 ? { attempts: spent.attempts } : {}),
      ...(spent?.failedUsage ? { failedUsage: spent.failedUsage } : {}),
    });
    this.init.publish({
      type: "assistant_message",
      text: result.text,
      reasoning: result.reasoning,
      tool_calls: result.toolCalls.map((c) => ({ id: c.id, name: c.name, arguments: c.arguments })),
      finish_reason: result.finish,
    });
  }

  toolStart(turn: number, id: string, name: string): void {
    this.commit({ type: "tool_start", turn, id, name });
  }

  toolResult(turn: number, id: string, name: string, result: ToolResult): void {
    this.commit({
      type: "tool_result",
      turn,
      id,
      name,
      outcome: result.outcome,
      content: this.init.storeContent(result.content),
      ...(result.sandboxed !== undefined ? { sandboxed: result.sandboxed } : {}),
    });
  }

  /** R-REC-3: answer every committed call that has no result, so a fresh prompt is admissible. */
  quiesce(reason: "cancelled" | "replied" | "failed" | "session_ended"): void {
    for (const record of quiesce(this.init.fold, reason)) this.commit(record);
  }

  /**
   * Commits the turn's end (when its turn reached the record: `recorded`) and announces it. A disk
   * that refuses the line makes the turn `failed` with the disk named; the line is then written
   * before the next one, once there is room. Returns the facts as announced.
   */
  turnEnd(facts: TurnEndFacts, recorded = true): TurnEndFacts {
    let end = facts;
    const cost = end.cost !== undefined ? end.cost : computeCost(end.usage, this.init.model().info.pricing);
    try {
      if (recorded) {
        // Calls the turn's own quiesce could not answer (the same full disk) are answered first.
        this.quiesce("failed");
        this.init.onBilled(this.commit({ type: "turn_end", ...recordedFacts(end), cost }));
      }
    } catch (err) {
      if (!(err instanceof DiskError)) throw err;
      if (end.error?.class !== "disk") {
        const error = { class: "disk" as const, message: err.message };
        this.init.publish({ type: "error", ...error });
        end = {
          ...end,
          stopReason: "failed",
          error: end.stopReason === "failed" ? (end.error ?? error) : error,
        };
      }
      this.owedEnd = { ...recordedFacts(end), cost };
    }
    this.init.publish({
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
      tool_rounds: end.toolRounds ?? 0,
      ...(end.error ? { error: end.error } : {}),
    });
    return end;
  }
}

function recordedFacts(end: TurnEndFacts): Omit<TurnEndFacts, "toolRounds"> {
  const { toolRounds: _announcedOnly, ...facts } = end;
  return facts;
}
