// Failed attempts' usage that the record does not hold yet. A round's failed attempts are billed
// with its answer (`assistant_message.failedUsage`) or by the engine's turn_end; if tern is
// killed before either (typically while a retry waits), this file keeps them, and crash recovery
// bills them in the `aborted` turn_end (R-REC-8: every request that returned usage is in a row).
import { readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import type { Usage } from "../vocab/usage.js";
import { writeFileAtomic } from "./atomic-write.js";

export const UNBILLED_FILE = "unbilled.json";

export interface Unbilled {
  turn: number;
  /** Failed requests of the round so far, and the usage they reported. */
  attempts: number;
  usage: Usage;
  /** The record's last seq when written: a later assistant_message or turn_end billed them. */
  afterSeq: number;
}

export function writeUnbilled(dir: string, unbilled: Unbilled): void {
  writeFileAtomic(join(dir, UNBILLED_FILE), JSON.stringify(unbilled));
}

export function readUnbilled(dir: string): Unbilled | undefined {
  try {
    const u = JSON.parse(readFileSync(join(dir, UNBILLED_FILE), "utf8")) as Unbilled;
    return Number.isInteger(u.turn) && Number.isInteger(u.afterSeq) && u.usage ? u : undefined;
  } catch {
    return undefined;
  }
}

export function clearUnbilled(dir: string): void {
  // unlink, not rmSync: Node's rmSync loads its recursive remover even for one file, and this
  // runs in every round of every run.
  try {
    unlinkSync(join(dir, UNBILLED_FILE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}
