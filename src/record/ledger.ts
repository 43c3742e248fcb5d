// R-REC-8: $TERN_HOME/ledger.db, one row per turn. Derived from the records (rebuildLedger).
// better-sqlite3 is loaded on first use so a headless start does not pay for it.
import { createRequire } from "node:module";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { loadRecord } from "./load.js";
import { recordFile, sessionsRoot } from "./store.js";
import type { TurnEndRecord } from "./types.js";
import { readdirSync } from "node:fs";

export interface LedgerRow {
  session: string;
  cwd: string;
  turn: number;
  /** ISO time the turn started. */
  started: string;
  durationMs: number;
  stopReason: string;
  rounds: number;
  modelCalls: number;
  toolCalls: number;
  toolErrors: number;
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheWrite: number;
  /** prompt − cacheRead (R-PROV-6). */
  billedInput: number;
  /** USD; null = unknown. */
  cost: number | null;
}

export type TurnRowInput = Omit<LedgerRow, "billedInput"> & { billedInput?: number };

export interface SessionTotals extends Omit<LedgerRow, "turn" | "stopReason"> {
  turns: number;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS turns (
  session TEXT NOT NULL,
  cwd TEXT NOT NULL,
  turn INTEGER NOT NULL,
  started TEXT NOT NULL,
  duration_ms INTEGER NOT NULL,
  stop_reason TEXT NOT NULL,
  rounds INTEGER NOT NULL,
  model_calls INTEGER NOT NULL,
  tool_calls INTEGER NOT NULL,
  tool_errors INTEGER NOT NULL,
  prompt INTEGER NOT NULL,
  completion INTEGER NOT NULL,
  cache_read INTEGER NOT NULL,
  cache_write INTEGER NOT NULL,
  billed_input INTEGER NOT NULL,
  cost REAL,
  PRIMARY KEY (session, turn)
);
CREATE INDEX IF NOT EXISTS turns_started ON turns (started);
`;

const COLUMNS = `session, cwd, turn, started, duration_ms AS durationMs, stop_reason AS stopReason, rounds,
  model_calls AS modelCalls, tool_calls AS toolCalls, tool_errors AS toolErrors, prompt, completion,
  cache_read AS cacheRead, cache_write AS cacheWrite, billed_input AS billedInput, cost`;

const UPSERT = `INSERT INTO turns (session, cwd, turn, started, duration_ms, stop_reason, rounds, model_calls,
  tool_calls, tool_errors, prompt, completion, cache_read, cache_write, billed_input, cost)
  VALUES (@session, @cwd, @turn, @started, @durationMs, @stopReason, @rounds, @modelCalls, @toolCalls,
  @toolErrors, @prompt, @completion, @cacheRead, @cacheWrite, @billedInput, @cost)
  ON CONFLICT (session, turn) DO UPDATE SET cwd = excluded.cwd, started = excluded.started,
  duration_ms = excluded.duration_ms, stop_reason = excluded.stop_reason, rounds = excluded.rounds,
  model_calls = excluded.model_calls, tool_calls = excluded.tool_calls, tool_errors = excluded.tool_errors,
  prompt = excluded.prompt, completion = excluded.completion, cache_read = excluded.cache_read,
  cache_write = excluded.cache_write, billed_input = excluded.billed_input, cost = excluded.cost`;

type DatabaseCtor = typeof Database;
let ctor: DatabaseCtor | undefined;
function sqlite(): DatabaseCtor {
  ctor ??= createRequire(import.meta.url)("better-sqlite3") as DatabaseCtor;
  return ctor;
}

export function ledgerPath(home: string): string {
  return join(home, "ledger.db");
}

/** The ledger row of a turn_end record. */
export function rowFromTurnEnd(session: string, cwd: string, rec: TurnEndRecord): TurnRowInput {
  return {
    session,
    cwd,
    turn: rec.turn,
    started: rec.startedAt || rec.ts,
    durationMs: rec.durationMs,
    stopReason: rec.stopReason,
    rounds: rec.rounds,
    modelCalls: rec.modelCalls,
    toolCalls: rec.toolCalls,
    toolErrors: rec.toolErrors,
    prompt: rec.usage.prompt,
    completion: rec.usage.completion,
    cacheRead: rec.usage.cacheRead,
    cacheWrite: rec.usage.cacheWrite,
    cost: rec.cost,
  };
}

export class Ledger {
  private readonly upsert: Database.Statement;

  constructor(readonly db: Database.Database) {
    this.upsert = db.prepare(UPSERT);
  }

  /** Inserts or replaces the row of (session, turn): a /retry ends a turn again. */
  recordTurn(row: TurnRowInput): void {
    this.upsert.run({ ...row, billedInput: row.billedInput ?? row.prompt - row.cacheRead });
  }

  /** Rows ordered by start time; `since` is an ISO date or time (inclusive). */
  rows(opts: { since?: string } = {}): LedgerRow[] {
    if (opts.since) {
      return this.db
        .prepare(`SELECT ${COLUMNS} FROM turns WHERE started >= ? ORDER BY started, session, turn`)
        .all(opts.since) as LedgerRow[];
    }
    return this.db
      .prepare(`SELECT ${COLUMNS} FROM turns ORDER BY started, session, turn`)
      .all() as LedgerRow[];
  }

  /** Per-session sums; a session's cost is null when any of its rows has an unknown cost. */
  totals(opts: { since?: string } = {}): SessionTotals[] {
    const where = opts.since ? "WHERE started >= ?" : "";
    const sql = `SELECT session, MIN(cwd) AS cwd, COUNT(*) AS turns, MIN(started) AS started,
      SUM(duration_ms) AS durationMs, SUM(rounds) AS rounds, SUM(model_calls) AS modelCalls,
      SUM(tool_calls) AS toolCalls, SUM(tool_errors) AS toolErrors, SUM(prompt) AS prompt,
      SUM(completion) AS completion, SUM(cache_read) AS cacheRead, SUM(cache_write) AS cacheWrite,
      SUM(billed_input) AS billedInput, CASE WHEN COUNT(cost) = COUNT(*) THEN SUM(cost) END AS cost
      FROM turns ${where} GROUP BY session ORDER BY MIN(started), session`;
    const stmt = this.db.prepare(sql);
    return (opts.since ? stmt.all(opts.since) : stmt.all()) as SessionTotals[];
  }

  close(): void {
    this.db.close();
  }
}

/** Opens (creating) $TERN_HOME/ledger.db in WAL mode with a 5 s busy timeout. */
export function openLedger(home: string): Ledger {
  const Db = sqlite();
  const db = new Db(ledgerPath(home), { timeout: 5000 });
  db.pragma("busy_timeout = 5000");
  db.pragma("journal_mode = WAL");
  db.exec(SCHEMA);
  return new Ledger(db);
}

export interface RebuildResult {
  rows: number;
  /** Sessions skipped (unreadable records) and torn-tail warnings. */
  warnings: string[];
}

/** Recreates every row from the turn_end lines of every record, in one transaction. */
export function rebuildLedger(home: string): RebuildResult {
  const warnings: string[] = [];
  const rows: TurnRowInput[] = [];
  const root = sessionsRoot(home);
  const dirs = (p: string) => {
    try {
      return readdirSync(p, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => join(p, d.name));
    } catch {
      return [];
    }
  };
  for (const ws of dirs(root)) {
    for (const dir of dirs(ws)) {
      let loaded: ReturnType<typeof loadRecord>;
      try {
        loaded = loadRecord(recordFile(dir));
      } catch (err) {
        warnings.push((err as Error).message);
        continue;
      }
      warnings.push(...loaded.warnings);
      const start = loaded.lines.find((l) => l.type === "session_start");
      if (start?.type !== "session_start") continue;
      for (const l of loaded.lines)
        if (l.type === "turn_end") rows.push(rowFromTurnEnd(start.id, start.cwd, l));
    }
  }
  const ledger = openLedger(home);
  try {
    ledger.db.transaction(() => {
      ledger.db.exec("DELETE FROM turns");
      for (const r of rows) ledger.recordTurn(r);
    })();
    return { rows: ledger.rows().length, warnings };
  } finally {
    ledger.close();
  }
}

/** Convenience wrappers matching the brief's names. */
export const recordTurn = (ledger: Ledger, row: TurnRowInput): void => ledger.recordTurn(row);
export const ledgerRows = (ledger: Ledger, opts?: { since?: string }): LedgerRow[] => ledger.rows(opts);
export const ledgerTotals = (ledger: Ledger, opts?: { since?: string }): SessionTotals[] =>
  ledger.totals(opts);
