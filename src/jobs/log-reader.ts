// Reading a job's log (log-writer.ts appends to it within its caps): a range as text, a head and
// tail of a long range, the last lines, and a scan of what is new for a pattern — each in bounded
// memory however big the output. Offsets count the whole output; what the caps dropped from the
// front of the file (`dropped`) reads as nothing.
import { fstatSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

/** Bytes a pattern scan reads at a time (one reused buffer). */
const SCAN_BYTES = 64 * 1024;
/** A line longer than this is not carried whole into the next scan. */
const CARRY_CHARS = 64 * 1024;

export class LogReader {
  private readonly scratch = Buffer.alloc(SCAN_BYTES);

  constructor(
    private readonly fd: number,
    /** Bytes of the output dropped from the front of the file. */
    readonly dropped: () => number = () => 0,
  ) {}

  /** Bytes written so far (dropped ones included). */
  size(): number {
    try {
      return this.dropped() + fstatSync(this.fd).size;
    } catch {
      return 0;
    }
  }

  /** Reads at output offset `at` (at or after the dropped part) into `buf`; the bytes read. */
  readAt(buf: Buffer, length: number, at: number): number {
    return readSync(this.fd, buf, 0, length, at - this.dropped());
  }

  /** Bytes [from, to) as text; a character cut at either end is left out. */
  text(from: number, to: number): string {
    from = Math.max(from, this.dropped());
    if (to <= from) return "";
    const buf = Buffer.alloc(to - from);
    const n = this.readAt(buf, buf.length, from);
    let start = 0;
    // A tail that starts inside a character skips its continuation bytes.
    while (start < n && start < 3 && (buf[start] & 0xc0) === 0x80) start++;
    return new StringDecoder("utf8").write(buf.subarray(start, n));
  }

  /** The last `n` lines (for `/jobs`). */
  lastLines(n: number): string[] {
    const end = this.size();
    const tail = this.text(Math.max(0, end - 4096), end).replace(/\n$/, "");
    return tail === "" ? [] : tail.split("\n").slice(-n);
  }

  /** A scan of the log from `from` on, for `wait_for` (see LogScan). */
  scan(from: number): LogScan {
    return new LogScan(this, this.scratch, from);
  }
}

/**
 * Feeds what the log gained since the last call to a test, chunk by chunk, carrying the line
 * still being written so a line split across writes is tested whole.
 */
export class LogScan {
  private readonly decoder = new StringDecoder("utf8");
  private carry = "";

  constructor(
    private readonly reader: LogReader,
    private readonly scratch: Buffer,
    private at: number,
  ) {}

  /** True once `test` holds for the new text (the carried line included). */
  advance(test: (text: string) => boolean): boolean {
    for (;;) {
      if (this.at < this.reader.dropped()) {
        // The caps dropped what was not scanned yet: go on from what is left.
        this.at = this.reader.dropped();
        this.carry = "";
      }
      const n = this.reader.readAt(this.scratch, this.scratch.length, this.at);
      if (n === 0) return false;
      this.at += n;
      const text = this.carry + this.decoder.write(this.scratch.subarray(0, n));
      if (text !== "" && test(text)) return true;
      const partial = text.slice(text.lastIndexOf("\n") + 1);
      this.carry = partial.length > CARRY_CHARS ? "" : partial;
    }
  }
}
