// R-REC-3: whatever ends an exchange, the record must leave a fresh prompt
// admissible. Only what is genuinely owed is written: answers to committed calls, and a
// capstone for a turn a crash cut off. Never an assistant message, never a system-role marker.
import type { RecordFold } from "./fold.js";
import type { NewRecord } from "./types.js";
import type { Unbilled } from "./unbilled.js";
import { addUsage, type Usage } from "../vocab/usage.js";

export type QuiesceReason = "cancelled" | "session_ended" | "replied" | "failed";

const NOT_EXECUTED: Record<QuiesceReason, string> = {
  cancelled: "not executed: cancelled by user",
  session_ended: "not executed: the session ended before it ran",
  replied: "not executed: the turn ended before it ran",
  failed: "not executed: the turn failed before it ran",
};

const INTERRUPTED: Record<QuiesceReason, string> = {
  cancelled: "interrupted: cancelled by user while this call was running; its effects are unknown",
  session_ended: "interrupted: the session ended while this call was running; its effects are unknown",
  replied: "interrupted: the session ended while this call was running; its effects are unknown",
  failed: "interrupted: the session ended while this call was running; its effects are unknown",
};

/** The tool_result records (in call order) that answer every committed call still owed. */
export function quiesce(fold: RecordFold, reason: QuiesceReason): NewRecord[] {
  return fold.openCalls.map((call) => ({
    type: "tool_result",
    turn: call.turn,
    id: call.id,
    name: call.name,
    outcome: call.started ? "interrupted" : "not_executed",
    content: [{ type: "text", text: call.started ? INTERRUPTED[reason] : NOT_EXECUTED[reason] }],
  }));
}

export interface RecoverOptions {
  /** Prices the run's usage; absent or null = unknown cost (the record holds no prices). */
  cost?: (usage: Usage, model: string | undefined) => number | null;
  /** Failed attempts the crash kept out of the record (unbilled.ts). */
  unbilled?: Unbilled;
}

/**
 * What a load must append to a record a crash cut off: answers for owed calls, then a
 * `turn_end` with stop reason `aborted` whose counts come from what the record holds of the
 * turn's current run (after its last turn_end, so a `/retry` run is not billed twice).
 */
export function recoverOnLoad(fold: RecordFold, opts: RecoverOptions = {}): NewRecord[] {
  const out = quiesce(fold, "session_ended");
  const turn = fold.openTurn;
  if (!turn) return out;
  const run = { ...turn.run, usage: { ...turn.run.usage } };
  const kept = opts.unbilled;
  // Still owed only if nothing billed them since: no answer and no turn_end after the file.
  if (
    kept &&
    kept.turn === turn.turn &&
    !fold.archive.some(
      (l) => l.seq > kept.afterSeq && (l.type === "assistant_message" || l.type === "turn_end"),
    )
  ) {
    run.modelCalls += kept.attempts;
    run.usage = addUsage(run.usage, kept.usage);
  }
  const interrupted = out.filter((r) => r.type === "tool_result" && r.outcome === "interrupted").length;
  const started = Date.parse(run.startedAt);
  const last = Date.parse(turn.lastTs);
  out.push({
    type: "turn_end",
    turn: turn.turn,
    stopReason: "aborted",
    rounds: run.rounds,
    modelCalls: run.modelCalls,
    toolCalls: run.toolCalls + interrupted,
    toolErrors: run.toolErrors + interrupted,
    usage: { ...run.usage },
    cost: opts.cost ? opts.cost({ ...run.usage }, fold.model) : null,
    durationMs: Number.isFinite(started) && Number.isFinite(last) ? Math.max(0, last - started) : 0,
    startedAt: run.startedAt,
  });
  return out;
}
