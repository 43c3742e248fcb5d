// R-REC-8: the ledger's rows, derived from one session's record. The live ledger and
// `tern metrics --rebuild` both call `billOf`, so the two cannot disagree: every request that
// returned usage is in exactly one row.
//
// - A turn row sums EVERY `turn_end` of that turn number: each turn_end covers the requests of
//   one run of the turn (a `/retry` of a failed turn runs it again and writes another turn_end),
//   so summing counts each billed request once, where keeping only the newest would drop some.
// - A compaction row is a `compaction` line with `bill` (a `/compact` outside a turn). A
//   compaction inside a turn is already in that turn's turn_end and has no `bill`.
// - Lines a fork copied from its parent (up to `session_start.parent.seq`) are the parent's
//   rows, and are skipped here.
import type { RecordLine, SessionStartRecord } from "./types.js";
import { addCost } from "../vocab/cost.js";
import { addUsage, billedInput, emptyUsage, type Usage } from "../vocab/usage.js";

export type RowKind = "turn" | "compaction";

/** What the provider billed for a set of requests: the figures every row, share and total carries. */
export interface BilledUsage {
  modelCalls: number;
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheWrite: number;
  /** prompt − cacheRead (R-PROV-6). */
  billedInput: number;
  /** USD; null = unknown (any part with an unknown price makes the whole unknown). */
  cost: number | null;
}

export interface BillRow extends BilledUsage {
  kind: RowKind;
  session: string;
  /** The session whose `task` call started this one (a sub-agent, R-AGENT-1); null otherwise. */
  parent?: string | null;
  cwd: string;
  /** The turn; for a compaction row, the newest turn before it (0 = none). */
  turn: number;
  /** 0 for a turn row; a compaction row's record seq (two `/compact` after one turn are two rows). */
  seq: number;
  /** The model that served the row (a turn's newest run). */
  model: string;
  /** ISO time the turn (its first run) or compaction started. */
  started: string;
  /** Summed over the turn's runs. */
  durationMs: number;
  /** The newest run's stop reason; `completed` for a compaction row. */
  stopReason: string;
  rounds: number;
  toolCalls: number;
  toolErrors: number;
}

/** One model's share of a row: a turn whose runs were served by different models (a `/model`
 * switch, then `/retry`) bills each model for its own requests. */
export interface ModelPart extends BilledUsage {
  model: string;
}

/** A row as derived from the record, with its per-model shares. */
export interface DerivedRow extends BillRow {
  parts: ModelPart[];
}

/**
 * Index of the first line this session bills itself. A fork's copied lines end at
 * `parent.seq`; records forked before that field existed end the copy at the last turn_end of
 * `parent.turn` that precedes any newer turn's prompt.
 */
export function firstOwnIndex(lines: readonly RecordLine[]): number {
  const start = lines[0];
  if (start?.type !== "session_start" || !start.parent) return 0;
  const { seq, turn } = start.parent;
  if (seq !== undefined) {
    const i = lines.findIndex((l) => l.seq > seq);
    return i < 0 ? lines.length : i;
  }
  let own = 1;
  for (let i = 1; i < lines.length; i++) {
    const l = lines[i];
    if (l.type === "user_prompt" && l.turn > turn) break;
    if (l.type === "turn_end" && l.turn === turn) own = i + 1;
  }
  return own;
}

/** Every ledger row of one session's record, turn rows and compaction rows, in record order. */
export function billOf(lines: readonly RecordLine[]): DerivedRow[] {
  const start = lines[0] as SessionStartRecord | undefined;
  if (start?.type !== "session_start") return [];
  const rows: DerivedRow[] = [];
  const turnRows = new Map<number, DerivedRow>();
  let model = start.model;
  let lastTurn = 0;
  // Model switches and turn numbers in the copied part still matter for what follows.
  const own = firstOwnIndex(lines);
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line.type === "config") model = line.model;
    else if (line.type === "user_prompt") lastTurn = Math.max(lastTurn, line.turn);
    if (i < own) continue;
    if (line.type === "turn_end") {
      const run = newRow("turn", start, line.turn, 0, model, line.startedAt || line.ts, line.usage);
      Object.assign(run, {
        durationMs: line.durationMs,
        stopReason: line.stopReason,
        rounds: line.rounds,
        modelCalls: line.modelCalls,
        toolCalls: line.toolCalls,
        toolErrors: line.toolErrors,
        cost: line.cost,
      });
      run.parts = [partOf(run)];
      const row = turnRows.get(line.turn);
      if (row) addRun(row, run);
      else {
        turnRows.set(line.turn, run);
        rows.push(run);
      }
    } else if (line.type === "compaction" && line.bill) {
      const usage = line.usage ?? emptyUsage();
      const row = newRow(
        "compaction",
        start,
        lastTurn,
        line.seq,
        line.bill.model || model,
        line.bill.startedAt || line.ts,
        usage,
      );
      row.durationMs = line.bill.durationMs;
      row.modelCalls = line.modelCalls ?? (line.usage ? 1 : 0);
      row.cost = line.bill.cost;
      row.parts = [partOf(row)];
      rows.push(row);
    }
  }
  return rows;
}

function newRow(
  kind: RowKind,
  start: SessionStartRecord,
  turn: number,
  seq: number,
  model: string,
  started: string,
  usage: Usage,
): DerivedRow {
  return {
    kind,
    session: start.id,
    parent: start.parent?.agent ? start.parent.session : null,
    cwd: start.cwd,
    turn,
    seq,
    model,
    started,
    durationMs: 0,
    stopReason: "completed",
    rounds: 0,
    modelCalls: 0,
    toolCalls: 0,
    toolErrors: 0,
    prompt: usage.prompt,
    completion: usage.completion,
    cacheRead: usage.cacheRead,
    cacheWrite: usage.cacheWrite,
    billedInput: billedInput(usage),
    cost: 0,
    parts: [],
  };
}

/** The row's figures as one model's share (a row holds one run until runs are added). */
export function partOf(row: BillRow): ModelPart {
  const { model, modelCalls, prompt, completion, cacheRead, cacheWrite, billedInput, cost } = row;
  return { model, modelCalls, prompt, completion, cacheRead, cacheWrite, billedInput, cost };
}

/** Two billed figures added up; the usage part keeps `addUsage`'s arithmetic. */
function addBilled(a: BilledUsage, b: BilledUsage): BilledUsage & Usage {
  const usage = addUsage(a, b);
  return {
    ...usage,
    modelCalls: a.modelCalls + b.modelCalls,
    billedInput: billedInput(usage),
    cost: addCost(a.cost, b.cost),
  };
}

/** Adds a later run of the same turn (a `/retry`) to its row: counts and usage add up. */
function addRun(row: DerivedRow, run: DerivedRow): void {
  const share = row.parts.find((p) => p.model === run.model);
  if (!share) row.parts.push(partOf(run));
  else Object.assign(share, addBilled(share, run));
  Object.assign(row, addBilled(row, run), {
    model: run.model,
    durationMs: row.durationMs + run.durationMs,
    stopReason: run.stopReason,
    rounds: row.rounds + run.rounds,
    toolCalls: row.toolCalls + run.toolCalls,
    toolErrors: row.toolErrors + run.toolErrors,
  });
}
