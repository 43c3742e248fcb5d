// Every bill row the records under a TERN_HOME hold: what a new or rebuilt ledger is filled with.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type BillRow, billOf } from "./bill.js";
import { loadRecord } from "./load.js";
import { recordFile, sessionsRoot } from "./store.js";
import type { RecordLine } from "./types.js";

/** Every row of every record under `home`. */
export function readAllRows(home: string): { rows: BillRow[]; warnings: string[] } {
  const warnings: string[] = [];
  const rows: BillRow[] = [];
  const dirs = (p: string) => {
    try {
      return readdirSync(p, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => join(p, d.name));
    } catch {
      return [];
    }
  };
  for (const ws of dirs(sessionsRoot(home))) {
    for (const dir of dirs(ws)) {
      let lines: RecordLine[];
      try {
        const loaded = loadRecord(recordFile(dir));
        lines = loaded.lines;
        warnings.push(...loaded.warnings);
      } catch (err) {
        warnings.push((err as Error).message);
        continue;
      }
      rows.push(...billOf(lines));
    }
  }
  return { rows, warnings };
}
