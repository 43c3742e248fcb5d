// The bill of compaction (R-PROV-6, R-REC-8): a summary request's attempts all count, and a
// `/compact` run outside a turn is billed on a ledger row of its own, through its record line.
import type { CompactionBill } from "../../record/types.js";
import type { SessionCore } from "../core.js";
import { computeCost } from "../../vocab/cost.js";
import { emptyUsage, type Usage } from "../../vocab/usage.js";
import { isoTimestamp } from "../../vocab/timestamp.js";
import { elapsedMs, monotonicMs } from "../../vocab/clock.js";

/** A `/compact` run outside a turn: when it started (wall time for the record, monotonic for its duration). */
export interface OutOfTurn {
  startedAt: Date;
  started: number;
}

export function startOutOfTurn(): OutOfTurn {
  return { startedAt: new Date(), started: monotonicMs() };
}

/** What a range's summary requests spent: every attempt's usage is billed, so the record keeps their sum. */
export interface SummarySpent {
  usage: Usage | null;
  modelCalls: number;
}

/** The `bill` of a summary run outside a turn, priced now with the model that wrote it. */
export function billOutOfTurn(
  core: SessionCore,
  usage: Usage | null,
  { startedAt, started }: OutOfTurn,
): CompactionBill {
  return {
    cost: computeCost(usage ?? emptyUsage(), core.model.info.pricing),
    startedAt: isoTimestamp(startedAt),
    durationMs: elapsedMs(started),
    model: core.model.id,
  };
}
