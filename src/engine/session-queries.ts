// Read-side commands over the archive and the ledger (sessions, export, fork, metrics), for
// front ends that must not touch record/ themselves.
import { existsSync } from "node:fs";
import { exportSession, type ExportFormat } from "../record/export.js";
import { forkSession } from "../record/fork.js";
import {
  type LedgerRow,
  LedgerDamagedError,
  ledgerExists,
  type ModelTotals,
  openLedger,
  type SessionTotals,
} from "../record/ledger.js";
import { rebuildLedger } from "../record/ledger-rebuild.js";
import { findSession, listSessions, type SessionSummary, sessionsRoot } from "../record/store.js";
import { SessionNotFoundError } from "./open.js";

export type { LedgerRow, ModelTotals, SessionSummary, SessionTotals };
export { LedgerDamagedError };

export function sessionsOf(home: string, cwd: string): SessionSummary[] {
  return listSessions(home, cwd);
}

function requireSession(home: string, id: string): string {
  const found = findSession(home, id);
  if (!found)
    throw new SessionNotFoundError(
      `no session '${id}' (run 'tern sessions' to list this workspace's sessions)`,
    );
  return found.id;
}

export function exportArchive(home: string, id: string, format: ExportFormat): string {
  return exportSession(home, requireSession(home, id), format);
}

export function forkArchive(home: string, id: string, atTurn?: number): string {
  return forkSession(home, requireSession(home, id), atTurn);
}

export interface Metrics {
  rows: LedgerRow[];
  totals: SessionTotals[];
  /** Per-model sums, with cache hit rate. */
  models: ModelTotals[];
  warnings: string[];
}

/**
 * The ledger's rows and totals. A TERN_HOME with no ledger.db and no sessions shows an empty
 * ledger without creating anything; a missing ledger.db is otherwise derived from the records.
 * A damaged ledger.db throws LedgerDamagedError unless `rebuild` replaces it.
 */
export function readMetrics(home: string, opts: { since?: string; rebuild?: boolean }): Metrics {
  const warnings = opts.rebuild ? rebuildLedger(home).warnings : [];
  if (!opts.rebuild && !ledgerExists(home) && !existsSync(sessionsRoot(home)))
    return { rows: [], totals: [], models: [], warnings };
  const ledger = openLedger(home);
  try {
    return {
      rows: ledger.rows({ since: opts.since }),
      totals: ledger.totals({ since: opts.since }),
      models: ledger.modelTotals({ since: opts.since }),
      warnings,
    };
  } finally {
    ledger.close();
  }
}
