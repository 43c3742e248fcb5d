// Rebuilding ledger.db from the records (`tern metrics --rebuild`): the records are the truth,
// so every row can be recreated, and a damaged database is replaced rather than repaired.
import { mkdirSync, rmSync } from "node:fs";
import { isDamage, LedgerDamagedError, ledgerPath, openLedger } from "./ledger.js";
import { readAllRows } from "./ledger-rows.js";

export interface RebuildResult {
  rows: number;
  /** Sessions skipped (unreadable records) and torn-tail warnings. */
  warnings: string[];
}

/**
 * Recreates every row from the records, in one transaction. A ledger.db that is not a readable
 * SQLite database (damaged, or some other file) is removed and written anew.
 */
export function rebuildLedger(home: string): RebuildResult {
  const { rows, warnings } = readAllRows(home);
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const fill = () => {
    const ledger = openLedger(home);
    try {
      ledger.db.transaction(() => {
        ledger.db.exec("DELETE FROM ledger_rows; DELETE FROM ledger_models;");
        for (const r of rows) ledger.put(r);
      })();
      return ledger.rows().length;
    } finally {
      ledger.close();
    }
  };
  try {
    return { rows: fill(), warnings };
  } catch (err) {
    if (!(err instanceof LedgerDamagedError) && !isDamage(err)) throw err;
    for (const suffix of ["", "-wal", "-shm"]) rmSync(`${ledgerPath(home)}${suffix}`, { force: true });
    warnings.push(`${ledgerPath(home)} was damaged and has been replaced`);
    return { rows: fill(), warnings };
  }
}
