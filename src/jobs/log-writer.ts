// A job's log within its caps (§10 amended 2026-12-07: nothing tern writes grows without bound).
// The job's output reaches tern through a pipe; tern redacts it (a provider key a job prints never
// lands on disk) and appends it to the log. When a log passes the per-job cap, or the session's
// logs together pass the per-session cap, the oldest part of the (largest) log is dropped: its
// newest half is moved to the front of the file and the file cut there. Offsets stay those of the
// whole output (`dropped` counts what was cut), so a reader's cursor keeps its meaning.
import { closeSync, ftruncateSync, readSync, writeSync } from "node:fs";

/** Bytes moved at a time when a log drops its oldest part. */
const MOVE_BYTES = 1024 * 1024;

export interface LogCaps {
  /** Bytes one job's log keeps at most. */
  jobBytes: number;
  /** Bytes all of a session's job logs keep together. */
  sessionBytes: number;
}

/** Text in, text out: the redaction of a stream (a secret split across pieces is still caught). */
export interface StreamFilter {
  push(piece: string): string;
  flush(): string;
}

/** The logs of one session, held together under the session cap. */
export class LogBudget {
  private readonly logs = new Set<CappedLog>();

  constructor(readonly caps: LogCaps) {}

  add(log: CappedLog): void {
    this.logs.add(log);
  }

  /** While the session's logs are over the cap, the largest drops its older half. */
  enforce(): void {
    let total = 0;
    for (const log of this.logs) total += log.size;
    while (total > this.caps.sessionBytes) {
      let largest: CappedLog | undefined;
      for (const log of this.logs) if (!largest || log.size > largest.size) largest = log;
      if (!largest || largest.size === 0) return;
      const before = largest.size;
      largest.keepNewest(Math.floor(before / 2));
      // A log that could not be cut (its file gone) must not hold the loop.
      if (largest.size === before) return;
      total -= before - largest.size;
    }
  }
}

export class CappedLog {
  /** Bytes of the output no longer in the file (its oldest part). */
  dropped = 0;
  /** Bytes in the file. */
  size = 0;

  /** `fd`: the log opened for reading and writing, empty; tern is its only writer. */
  constructor(
    private readonly fd: number,
    private readonly budget: LogBudget,
  ) {
    budget.add(this);
  }

  /** Appends text (already redacted), then keeps the log and the session within their caps. */
  append(text: string): void {
    if (text === "") return;
    const bytes = Buffer.from(text, "utf8");
    try {
      writeSync(this.fd, bytes, 0, bytes.length, this.size);
    } catch {
      // A full disk or a removed session folder: the job runs on, its output is lost.
      return;
    }
    this.size += bytes.length;
    if (this.size > this.budget.caps.jobBytes) this.keepNewest(Math.floor(this.budget.caps.jobBytes / 2));
    this.budget.enforce();
  }

  /** Drops all but the newest `keep` bytes. */
  keepNewest(keep: number): void {
    if (keep >= this.size) return;
    const from = this.size - keep;
    const buf = Buffer.alloc(Math.min(MOVE_BYTES, Math.max(keep, 1)));
    try {
      for (let done = 0; done < keep; ) {
        const n = readSync(this.fd, buf, 0, Math.min(buf.length, keep - done), from + done);
        if (n === 0) break;
        writeSync(this.fd, buf, 0, n, done);
        done += n;
      }
      ftruncateSync(this.fd, keep);
    } catch {
      return;
    }
    this.dropped += from;
    this.size = keep;
  }

  close(): void {
    try {
      closeSync(this.fd);
    } catch {
      // Already closed.
    }
  }
}
