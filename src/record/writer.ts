// The only code that writes record.jsonl. Each append is one synchronous write of one whole
// line, so once `append` returns the line survives a SIGKILL (R-REC-4). Lines are never
// rewritten; the one exception is cutting off a torn tail left by a crash, so the next line is
// not glued to the fragment (that fragment was never committed: `append` had not returned).
import {
  closeSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readSync,
  writeSync,
} from "node:fs";
import { redactDeep } from "../config/secrets.js";
import { DiskError, RecordError, rethrowAsDisk } from "./errors.js";
import { normalizeLine } from "./load.js";
import { type NewRecord, RECORD_VERSION, type RecordLine } from "./types.js";
import { isoTimestamp } from "../vocab/timestamp.js";

export interface WriterOptions {
  now?: () => Date;
  /** Called after each line is written (the session store keeps meta.json with it). */
  onAppend?: (line: RecordLine, writer: RecordWriter) => void;
  /** fsync after `turn_end` lines (default true): a power loss then costs at most the open turn. */
  syncAtTurnEnd?: boolean;
  /** Called once when the writer closes (the session store releases the session lock). */
  onClose?: () => void;
}

export interface AppendOptions {
  /** Keep this commit time (fork copies records with their original time). */
  ts?: string;
}

const CHUNK = 64 * 1024;

/** Start offset of the last line that ends before `end` (scans backwards in chunks). */
function lastLineStart(fd: number, end: number): number {
  let pos = end;
  const buf = Buffer.alloc(CHUNK);
  while (pos > 0) {
    const len = Math.min(CHUNK, pos);
    pos -= len;
    readSync(fd, buf, 0, len, pos);
    const nl = buf.subarray(0, len).lastIndexOf(10);
    if (nl >= 0) return pos + nl + 1;
  }
  return 0;
}

function readRange(fd: number, start: number, end: number): string {
  const buf = Buffer.alloc(end - start);
  readSync(fd, buf, 0, buf.length, start);
  return buf.toString("utf8");
}

export class RecordWriter {
  private fd: number;
  private _lastSeq: number;
  private _size: number;
  private readonly now: () => Date;
  private readonly onAppend?: WriterOptions["onAppend"];
  private readonly syncAtTurnEnd: boolean;
  private readonly onClose?: () => void;

  private constructor(
    readonly file: string,
    fd: number,
    lastSeq: number,
    size: number,
    opts: WriterOptions,
  ) {
    this.fd = fd;
    this._lastSeq = lastSeq;
    this._size = size;
    this.now = opts.now ?? (() => new Date());
    this.onAppend = opts.onAppend;
    this.syncAtTurnEnd = opts.syncAtTurnEnd ?? true;
    this.onClose = opts.onClose;
  }

  /** Opens (creating if needed) a record for appending; continues its seq; cuts a torn tail. */
  static open(file: string, opts: WriterOptions = {}): RecordWriter {
    const fd = openSync(file, "a+", 0o600);
    try {
      try {
        fchmodSync(fd, 0o600); // a record an older tern created world-readable
      } catch {}
      let size = fstatSync(fd).size;
      let lastSeq = 0;
      // A torn tail (no newline) is cut; then the last complete line gives the seq. Blank
      // lines are skipped; a complete line that does not load is never cut (R-REC-4).
      let end = size;
      let cut = false;
      while (end > 0) {
        const endsWithNewline = readRange(fd, end - 1, end) === "\n";
        const contentEnd = endsWithNewline ? end - 1 : end;
        const start = lastLineStart(fd, contentEnd);
        if (!endsWithNewline) {
          if (cut) throw new RecordError(`${file}: the last two lines are damaged; refusing to append`);
          ftruncateSync(fd, start);
          size = end = start;
          cut = true;
          continue;
        }
        const text = readRange(fd, start, contentEnd);
        if (text.trim() === "") {
          end = start;
          continue;
        }
        try {
          lastSeq = normalizeLine(JSON.parse(text)).seq;
        } catch (err) {
          const why =
            err instanceof SyntaxError ? `unparsable JSON (${err.message})` : (err as Error).message;
          throw new RecordError(`${file}: last line: ${why}`);
        }
        break;
      }
      return new RecordWriter(file, fd, lastSeq, size, opts);
    } catch (err) {
      closeSync(fd);
      opts.onClose?.();
      throw err;
    }
  }

  get lastSeq(): number {
    return this._lastSeq;
  }

  /** Bytes in the file after the last append (meta.json uses it to detect a stale summary). */
  get size(): number {
    return this._size;
  }

  /** Stamps v, seq and ts, writes one line, and returns the committed line. */
  append(rec: NewRecord, opts: AppendOptions = {}): RecordLine {
    if (this.fd < 0) throw new RecordError(`${this.file}: writer is closed`);
    // Every line passes here, so a key value never reaches the record, its fold (the next
    // request), the ledger or an export, whichever door it came in by (R-CFG-3).
    const line = redactDeep({
      v: RECORD_VERSION,
      seq: this._lastSeq + 1,
      ts: opts.ts ?? isoTimestamp(this.now()),
      ...stripStamp(rec),
    }) as RecordLine;
    const buf = Buffer.from(`${JSON.stringify(line)}\n`, "utf8");
    // A record whose folder was removed (rm -rf of the session) takes writes without complaint
    // and keeps none of them: it is a disk failure and said as one.
    if (fstatSync(this.fd).nlink === 0) throw new DiskError(this.file, "ENOENT");
    try {
      let off = 0;
      while (off < buf.length) off += writeSync(this.fd, buf, off, buf.length - off);
      if (line.type === "turn_end" && this.syncAtTurnEnd) fsyncSync(this.fd);
    } catch (err) {
      // A full disk may take part of the line: cutting it off (which needs no room) keeps the
      // file what the fold believes, so the session goes on once there is space again.
      try {
        ftruncateSync(this.fd, this._size);
      } catch {}
      rethrowAsDisk(err, this.file);
    }
    this._lastSeq = line.seq;
    this._size += buf.length;
    this.onAppend?.(line, this);
    return line;
  }

  close(): void {
    if (this.fd >= 0) {
      closeSync(this.fd);
      this.fd = -1;
      this.onClose?.();
    }
  }
}

/** A copied line may carry stale stamps; the writer's own always win. */
function stripStamp(rec: NewRecord): Record<string, unknown> {
  const { v: _v, seq: _s, ts: _t, ...rest } = rec as Record<string, unknown>;
  return rest;
}
