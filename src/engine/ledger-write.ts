// Writes a session's ledger rows (R-REC-8) and prices a usage for the model that served it.
import { modelInfo } from "../config/catalogue.js";
import type { Config, ResolvedModel } from "../config/types.js";
import { billOf } from "../record/bill.js";
import { openLedger } from "../record/ledger.js";
import type { RecordLine } from "../record/types.js";
import { computeCost } from "../vocab/cost.js";
import type { Usage } from "../vocab/usage.js";

/**
 * R-REC-8: after a billed line, the session's rows are recomputed from its record by the same
 * function `tern metrics --rebuild` uses, so live and rebuilt agree. The ledger is derived, so a
 * ledger failure is a notice, never a lost turn.
 */
export function writeLedgerRows(
  home: string,
  id: string,
  lines: readonly RecordLine[],
  warn: (text: string) => void,
): void {
  try {
    const ledger = openLedger(home);
    try {
      ledger.putSession(id, billOf(lines));
    } finally {
      ledger.close();
    }
  } catch (err) {
    warn(
      `ledger not updated (${err instanceof Error ? err.message : String(err)}); run 'tern metrics --rebuild'`,
    );
  }
}

/** Prices a usage for the model that served it: the running one, else its catalogue entry. */
export function priceFor(config: Config, model: ResolvedModel) {
  return (usage: Usage, id: string | undefined): number | null =>
    computeCost(
      usage,
      !id || id === model.id ? model.info.pricing : modelInfo(id, config.models[id]).info.pricing,
    );
}
