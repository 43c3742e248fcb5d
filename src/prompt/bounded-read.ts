// Reads a user's markdown file for the prompt: a regular file only (a FIFO or a device named
// AGENTS.md must never hang the start), and never more than `maxBytes`, so a huge file costs
// one bounded read. Errors carry a short reason for the one-line notice naming the file.
import { closeSync, constants, fstatSync, openSync, readSync, statSync } from "node:fs";

export class UnreadableFile extends Error {}

export interface BoundedText {
  text: string;
  /** Bytes of the whole file; more than were read when the file is over `maxBytes`. */
  size: number;
}

/** undefined when there is no such file (or it is a folder); throws UnreadableFile otherwise. */
export function readTextBounded(path: string, maxBytes: number): BoundedText | undefined {
  let st: ReturnType<typeof statSync>;
  try {
    st = statSync(path);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw new UnreadableFile(`cannot read it (${code ?? "error"})`);
  }
  if (st.isDirectory()) return undefined;
  if (!st.isFile()) throw new UnreadableFile("not a regular file");
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (e) {
    throw new UnreadableFile(`cannot read it (${(e as NodeJS.ErrnoException).code ?? "error"})`);
  }
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.min(size, maxBytes));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, got);
      if (n === 0) break;
      got += n;
    }
    const text = buf.subarray(0, got).toString("utf8");
    if (text.includes("\u0000")) throw new UnreadableFile("binary, not text");
    return { text, size };
  } catch (e) {
    if (e instanceof UnreadableFile) throw e;
    throw new UnreadableFile(`cannot read it (${(e as NodeJS.ErrnoException).code ?? "error"})`);
  } finally {
    closeSync(fd);
  }
}

/** Text as the prompt carries it: no BOM, LF line ends, no surrounding blank lines. */
export const normalizeText = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .trim();
