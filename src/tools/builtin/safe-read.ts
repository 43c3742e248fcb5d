// Reading a file the model (or a prompt) names, without ever hanging or exhausting memory
// (R-TOOL-6, SPEC §10): the file is opened non-blocking (a FIFO then cannot block the open),
// checked on the open descriptor (no swap between check and read), and read up to a bound
// (a /proc file or a growing log has no trustworthy size).
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";

export class NotRegularFileError extends Error {
  constructor(readonly kind: string) {
    super(`is ${kind}, not a regular file`);
  }
}

export class FileTooLargeError extends Error {
  constructor(
    readonly size: number,
    readonly max: number,
  ) {
    super(`is larger than ${max} bytes`);
  }
}

export function fileKind(st: Stats): string {
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  return st.isFile() ? "a regular file" : "not a regular file";
}

export interface SafeRead {
  data: Buffer;
  stats: Stats;
}

/** Reads a regular file of at most `maxBytes`; throws NotRegularFileError / FileTooLargeError / errno errors. */
export function readRegularFile(path: string, maxBytes: number): SafeRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    // Opening a unix socket fails with ENXIO: say what it is rather than the errno.
    if ((err as NodeJS.ErrnoException).code === "ENXIO") throw new NotRegularFileError("a socket");
    throw err;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFileError(fileKind(stats));
    if (stats.size > maxBytes) throw new FileTooLargeError(stats.size, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.min(Math.max(stats.size - total, 64 * 1024), 1024 * 1024));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      total += n;
      if (total > maxBytes) throw new FileTooLargeError(total, maxBytes);
      chunks.push(n === buf.length ? buf : buf.subarray(0, n));
    }
    return { data: Buffer.concat(chunks, total), stats };
  } finally {
    closeSync(fd);
  }
}
