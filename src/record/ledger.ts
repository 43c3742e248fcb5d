// R-REC-8: $TERN_HOME/ledger.db, the bill. Its rows are derived from the records by `billOf`
// (bill.ts) — live after each billed line, and by `rebuildLedger` (ledger-rebuild.ts) — so rebuilt equals live.
import { chmodSync, existsSync } from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
import { openDatabase } from "./ledger-addon.js";
import { type BilledUsage, type BillRow, type ModelPart, partOf } from "./bill.js";
import { readAllRows } from "./ledger-rows.js";

export type { BillRow as LedgerRow, RowKind } from "./bill.js";

/** What the provider billed over a set of rows, with the figure a user checks to see that caching works. */
export interface BillTotals extends BilledUsage {
  /** cacheRead / prompt; null when nothing was sent. */
  cacheHitRate: number | null;
}

export interface UsageTotals extends BillTotals {
  rounds: number;
  toolCalls: number;
  toolErrors: number;
}

export interface SessionTotals extends UsageTotals {
  session: string;
  /** The session whose `task` call started this one (R-AGENT-1); null for any other session. */
  parent: string | null;
  cwd: string;
  /** Turn rows. */
  turns: number;
  /** Compaction rows (`/compact` outside a turn). */
  compactions: number;
  started: string;
  durationMs: number;
}

export interface ModelTotals extends BillTotals {
  model: string;
  rows: number;
}

/** Bumped whenever the table changes; an older ledger.db is rebuilt from the records on open. */
const SCHEMA_VERSION = 3;
/** Version 3 added `parent` (R-AGENT-1); a version-2 ledger gets the column, its rows keep theirs. */
const ADD_PARENT_FROM = 2;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ledger_rows (
  session TEXT NOT NULL,
  kind TEXT NOT NULL,
  turn INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  cwd TEXT NOT NULL,
  model TEXT NOT NULL,
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
  parent TEXT,
  PRIMARY KEY (session, kind, turn, seq)
);
CREATE INDEX IF NOT EXISTS ledger_rows_started ON ledger_rows (started);
CREATE TABLE IF NOT EXISTS ledger_models (
  session TEXT NOT NULL,
  kind TEXT NOT NULL,
  turn INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  model TEXT NOT NULL,
  started TEXT NOT NULL,
  model_calls INTEGER NOT NULL,
  prompt INTEGER NOT NULL,
  completion INTEGER NOT NULL,
  cache_read INTEGER NOT NULL,
  cache_write INTEGER NOT NULL,
  billed_input INTEGER NOT NULL,
  cost REAL,
  PRIMARY KEY (session, kind, turn, seq, model)
);
`;

const COLUMNS = `kind, session, cwd, turn, seq, model, started, duration_ms AS durationMs,
  stop_reason AS stopReason, rounds, model_calls AS modelCalls, tool_calls AS toolCalls,
  tool_errors AS toolErrors, prompt, completion, cache_read AS cacheRead, cache_write AS cacheWrite,
  billed_input AS billedInput, cost, parent`;

const BILL_SUMS = `SUM(model_calls) AS modelCalls, SUM(prompt) AS prompt, SUM(completion) AS completion,
  SUM(cache_read) AS cacheRead, SUM(cache_write) AS cacheWrite, SUM(billed_input) AS billedInput,
  CASE WHEN COUNT(cost) = COUNT(*) THEN SUM(cost) END AS cost,
  CASE WHEN SUM(prompt) > 0 THEN CAST(SUM(cache_read) AS REAL) / SUM(prompt) END AS cacheHitRate`;
const SUMS = `SUM(rounds) AS rounds, SUM(tool_calls) AS toolCalls, SUM(tool_errors) AS toolErrors, ${BILL_SUMS}`;

/** Rows are replaced whole: each is recomputed from the record, never incremented in place. */
const UPSERT = `INSERT OR REPLACE INTO ledger_rows (session, kind, turn, seq, cwd, model, started,
  duration_ms, stop_reason, rounds, model_calls, tool_calls, tool_errors, prompt, completion,
  cache_read, cache_write, billed_input, cost, parent)
  VALUES (@session, @kind, @turn, @seq, @cwd, @model, @started, @durationMs, @stopReason, @rounds,
  @modelCalls, @toolCalls, @toolErrors, @prompt, @completion, @cacheRead, @cacheWrite, @billedInput, @cost,
  @parent)`;

const CLEAR_PARTS =
  "DELETE FROM ledger_models WHERE session = @session AND kind = @kind AND turn = @turn AND seq = @seq";
const INSERT_PART = `INSERT INTO ledger_models (session, kind, turn, seq, model, started, model_calls, prompt,
  completion, cache_read, cache_write, billed_input, cost)
  VALUES (@session, @kind, @turn, @seq, @model, @started, @modelCalls, @prompt, @completion, @cacheRead,
  @cacheWrite, @billedInput, @cost)`;

/**
 * Loads the SQLite addon and starts SQLite without opening a file (an in-memory database), so the
 * next `openLedger` finds them ready. Best effort: a failure here is met again, and reported, there.
 */
export function preloadLedger(): void {
  try {
    openDatabase(":memory:", {}).close();
  } catch {}
}

export function ledgerPath(home: string): string {
  return join(home, "ledger.db");
}

/** The ledger cannot be read: not SQLite, or damaged. `tern metrics --rebuild` replaces it. */
export class LedgerDamagedError extends Error {
  override name = "LedgerDamagedError";
}

export class Ledger {
  private readonly upsert: Database.Statement;
  private readonly clearParts: Database.Statement;
  private readonly insertPart: Database.Statement;

  constructor(readonly db: Database.Database) {
    this.upsert = db.prepare(UPSERT);
    this.clearParts = db.prepare(CLEAR_PARTS);
    this.insertPart = db.prepare(INSERT_PART);
  }

  /**
   * Writes (replacing) the row with this key and its per-model shares (`parts`, as `billOf` gives
   * them; a row without parts is one share of its own model).
   */
  put(row: BillRow & { parts?: ModelPart[] }): void {
    this.db.transaction(() => this.write(row))();
  }

  /** Replaces every row of one session with `rows` (what `billOf` gives for its record). */
  putSession(session: string, rows: readonly (BillRow & { parts?: ModelPart[] })[]): void {
    // One transaction, no savepoint per row: a turn end rewrites every row of its session.
    this.db.transaction(() => {
      this.db.prepare("DELETE FROM ledger_rows WHERE session = ?").run(session);
      this.db.prepare("DELETE FROM ledger_models WHERE session = ?").run(session);
      for (const row of rows) this.write(row);
    })();
  }

  private write(row: BillRow & { parts?: ModelPart[] }): void {
    const { parts, ...given } = row;
    const fields = { ...given, parent: given.parent ?? null };
    this.upsert.run(fields);
    this.clearParts.run(fields);
    const { session, kind, turn, seq, started } = fields;
    for (const part of parts ?? [partOf(fields)])
      this.insertPart.run({ ...part, session, kind, turn, seq, started });
  }

  /** Rows ordered by start time; `since` is an ISO date or time (inclusive). */
  rows(opts: { since?: string } = {}): BillRow[] {
    const where = opts.since ? "WHERE started >= ?" : "";
    const stmt = this.db.prepare(
      `SELECT ${COLUMNS} FROM ledger_rows ${where} ORDER BY started, session, turn, seq`,
    );
    return (opts.since ? stmt.all(opts.since) : stmt.all()) as BillRow[];
  }

  /** Per-session sums; a session's cost is null when any of its rows has an unknown cost. */
  totals(opts: { since?: string } = {}): SessionTotals[] {
    const where = opts.since ? "WHERE started >= ?" : "";
    const sql = `SELECT session, MIN(cwd) AS cwd, MIN(parent) AS parent, SUM(kind = 'turn') AS turns,
      SUM(kind = 'compaction') AS compactions, MIN(started) AS started, SUM(duration_ms) AS durationMs, ${SUMS}
      FROM ledger_rows ${where} GROUP BY session ORDER BY MIN(started), session`;
    const stmt = this.db.prepare(sql);
    return (opts.since ? stmt.all(opts.since) : stmt.all()) as SessionTotals[];
  }

  /** Per-model sums: each model is billed for the requests it served; `rows` counts rows it had a share in. */
  modelTotals(opts: { since?: string } = {}): ModelTotals[] {
    const where = opts.since ? "WHERE started >= ?" : "";
    const sql = `SELECT model, COUNT(*) AS rows, ${BILL_SUMS} FROM ledger_models ${where} GROUP BY model ORDER BY model`;
    const stmt = this.db.prepare(sql);
    return (opts.since ? stmt.all(opts.since) : stmt.all()) as ModelTotals[];
  }

  close(): void {
    this.db.close();
  }
}

/**
 * Opens (creating) $TERN_HOME/ledger.db in WAL mode with a 5 s busy timeout. A new ledger, or
 * one written by an older tern, is filled from the records first: the ledger is derived.
 * Throws LedgerDamagedError when the file is not a readable SQLite database.
 */
export function openLedger(home: string): Ledger {
  let db: Database.Database | undefined;
  try {
    db = openDatabase(ledgerPath(home), { timeout: 5000 });
    db.pragma("busy_timeout = 5000");
    db.pragma("journal_mode = WAL");
    // The ledger is derived (R-REC-8: `tern metrics --rebuild` recreates it from the records and
    // replaces a damaged file), so nothing here waits for the disk. A turn end opens, writes and
    // closes it: with NORMAL that still cost four fsyncs (the new WAL's header and its folder, and
    // the checkpoint at close: WAL, then the file), ~3-8 ms of a one-round run. OFF takes them
    // all; a SIGKILL still loses nothing written (the OS has the pages), and only an OS crash or
    // power cut can lose or damage the newest rows, which a rebuild restores. The record, the
    // source of truth, keeps its own fsync at each turn end (writer.ts).
    db.pragma("synchronous = OFF");
    ensureSchema(db, home);
    narrowLedgerFiles(home);
    return new Ledger(db);
  } catch (err) {
    db?.close();
    if (isDamage(err))
      throw new LedgerDamagedError(`${ledgerPath(home)} is damaged (${(err as Error).message})`);
    throw err;
  }
}

/**
 * Private (R-REC-9): the ledger names sessions and workspaces. SQLite creates its files with the
 * default umask, so they are narrowed here.
 */
function narrowLedgerFiles(home: string): void {
  for (const suffix of ["", "-wal", "-shm"]) {
    try {
      chmodSync(`${ledgerPath(home)}${suffix}`, 0o600);
    } catch {}
  }
}

function ensureSchema(db: Database.Database, home: string): void {
  if (db.pragma("user_version", { simple: true }) === SCHEMA_VERSION) return;
  // IMMEDIATE: two processes opening a new ledger at once fill it once.
  db.transaction(() => {
    const version = db.pragma("user_version", { simple: true });
    if (version === SCHEMA_VERSION) return;
    if (version === ADD_PARENT_FROM) {
      // Rows written before sub-agents existed are no child's: their parent stays NULL.
      db.exec("ALTER TABLE ledger_rows ADD COLUMN parent TEXT");
      db.pragma(`user_version = ${SCHEMA_VERSION}`);
      return;
    }
    db.exec(
      "DROP TABLE IF EXISTS turns; DROP TABLE IF EXISTS ledger_rows; DROP TABLE IF EXISTS ledger_models;",
    );
    db.exec(SCHEMA);
    const ledger = new Ledger(db);
    for (const row of readAllRows(home).rows) ledger.put(row);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  }).immediate();
}

/** Whether an error says the file is not a readable SQLite database. */
export function isDamage(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === "string" && /^SQLITE_(NOTADB|CORRUPT)/.test(code);
}

/** Whether ledger.db exists (`tern metrics` on a new TERN_HOME creates nothing). */
export function ledgerExists(home: string): boolean {
  return existsSync(ledgerPath(home));
}
