// Failed attempts' usage that the record does not hold yet. A round's failed attempts are billed
// with its answer (`assistant_message.failedUsage`) or by the engine's turn_end; if tern is
// killed before either (typically while a retry waits), this file keeps them, and crash recovery
// bills them in the `aborted` turn_end (R-REC-8: every request that returned usage is in a row).
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { Usage } from "../vocab/usage.js";

export const UNBILLED_FILE = "unbilled.json";

export interface Unbilled {
  turn: number;
  /** Failed requests of the round so far, and the usage they reported. */
  attempts: number;
  usage: Usage;
  /** The record's last seq when written: a later assistant_message or turn_end billed them. */
  afterSeq: number;
}

/** Bytes every write covers at least, so a shorter text overwrites a longer one whole. */
const SLOT_BYTES = 512;

/**
 * The session's unbilled.json, open for the session's life and rewritten in place: every model
 * attempt starts with a write, so one positioned write per attempt, not a create, rename and
 * unlink each round (a fifth of a read_file round's system time). A text shorter than the last
 * is padded with spaces, which JSON.parse ignores. A process killed mid-write leaves the old
 * text or the new (one small write at offset 0; the file is never truncated); a torn file fails
 * to parse and reads as nothing kept, as a missing one does.
 * Stale text needs no clearing: recovery bills it only when no answer or turn_end came after
 * its `afterSeq` (record/quiesce.ts).
 */
export class UnbilledFile {
  private fd: number | undefined;
  private written = 0;

  constructor(private readonly dir: string) {}

  write(unbilled: Unbilled): void {
    const text = Buffer.from(JSON.stringify(unbilled), "utf8");
    const bytes = Math.max(SLOT_BYTES, this.written, text.length);
    const block = Buffer.alloc(bytes, 0x20);
    text.copy(block);
    this.fd ??= openSync(join(this.dir, UNBILLED_FILE), "w", 0o600);
    writeSync(this.fd, block, 0, bytes, 0);
    this.written = bytes;
  }

  /** The session ends with everything billed: the file goes. */
  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
    removeUnbilled(this.dir);
  }
}

export function readUnbilled(dir: string): Unbilled | undefined {
  try {
    const u = JSON.parse(readFileSync(join(dir, UNBILLED_FILE), "utf8")) as Unbilled;
    return Number.isInteger(u.turn) && Number.isInteger(u.afterSeq) && u.usage ? u : undefined;
  } catch {
    return undefined;
  }
}

export function removeUnbilled(dir: string): void {
  // unlink, not rmSync: Node's rmSync loads its recursive remover even for one file.
  try {
    unlinkSync(join(dir, UNBILLED_FILE));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
}
