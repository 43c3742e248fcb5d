// read_file: line-numbered text (R-TOOL-1), images as image parts; a text read authorizes edits.
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { displayPath, resolvePath } from "../paths.js";
import { errorMessage, fail, ok } from "../results.js";
import { located, text } from "../present.js";
import type { Tool } from "../types.js";
import { FileTooLargeError, NotRegularFileError, readRegularFile } from "./safe-read.js";

const DEFAULT_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;

const schema = lazySchema(() =>
  z.object({
    path: z.string(),
    offset: z.optional(z.int().check(z.minimum(1))),
    limit: z.optional(z.int().check(z.minimum(1))),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

/** Detects the image types the providers accept by their magic bytes, not by the name. */
export function imageMediaType(buf: Buffer): string | null {
  if (
    buf.length >= 8 &&
    buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
  ) {
    return "image/png";
  }
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return "image/jpeg";
  if (buf.length >= 6 && /^GIF8[79]a$/.test(buf.subarray(0, 6).toString("latin1"))) return "image/gif";
  if (
    buf.length >= 12 &&
    buf.toString("latin1", 0, 4) === "RIFF" &&
    buf.toString("latin1", 8, 12) === "WEBP"
  ) {
    return "image/webp";
  }
  return null;
}

export function looksBinary(buf: Buffer): boolean {
  return buf.subarray(0, 8192).includes(0);
}

/** Splits text into lines; a final newline ends the last line rather than opening an empty one. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function numberLines(lines: string[], firstLine: number): string {
  return lines
    .map((line, i) => {
      const cut =
        line.length > MAX_LINE_CHARS
          ? `${line.slice(0, MAX_LINE_CHARS)}… [line cut, ${line.length - MAX_LINE_CHARS} more characters]`
          : line;
      return `${String(firstLine + i).padStart(6)}\t${cut}`;
    })
    .join("\n");
}

/** Larger files are searched (grep) or printed in ranges (bash), never loaded whole. */
const READ_MAX_BYTES = 32 * 1024 * 1024;

export const readFileTool: Tool<Args> = {
  name: "read_file",
  description:
    `Read a file as numbered lines from offset (1-based), at most limit (default ${DEFAULT_LIMIT}); png, ` +
    "jpeg, gif, webp as images.",
  get schema() {
    return schema();
  },
  kind: "read",
  paths: (args) => [args.path],
  present: (args) => {
    const range =
      args.offset || args.limit
        ? `:${text(args.offset ?? 1)}${args.limit ? `-${Number(args.offset ?? 1) + Number(args.limit) - 1}` : ""}`
        : "";
    return { title: `${text(args.path)}${range}`, kind: "read", locations: located(args.path, args.offset) };
  },
  async run(args, ctx) {
    const abs = resolvePath(ctx.cwd, args.path);
    const shown = displayPath(ctx.cwd, abs);
    let buf: Buffer;
    let mtimeMs: number;
    try {
      const read = readRegularFile(abs, READ_MAX_BYTES);
      buf = read.data;
      mtimeMs = read.stats.mtimeMs;
    } catch (err) {
      if (err instanceof NotRegularFileError) {
        return fail(
          err.kind === "a directory"
            ? `${shown} is a directory; use glob to list files.`
            : `${shown} ${err.message}; refusing to read it.`,
        );
      }
      if (err instanceof FileTooLargeError)
        return fail(
          `${shown} ${err.message}; search it with grep or print a range with bash (sed -n '1,200p').`,
        );
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return fail(`File not found: ${shown}`);
      if ((err as NodeJS.ErrnoException).code === "EISDIR")
        return fail(`${shown} is a directory; use glob to list files.`);
      return fail(`Cannot read ${shown}: ${errorMessage(err)}`);
    }
    const media = imageMediaType(buf);
    if (media) {
      return ok(`Image ${shown} (${media}, ${buf.length} bytes).`, [
        { type: "image", mediaType: media, data: buf.toString("base64") },
      ]);
    }
    if (looksBinary(buf))
      return fail(`${shown} is a binary file (${buf.length} bytes); refusing to read it.`);

    // A BOM and `\r` are the file's own and stay on disk; the model sees plain lines (R-EDIT-2).
    const lines = splitLines(buf.toString("utf8").replace(/^\uFEFF/, ""));
    ctx.readTracker.markRead(abs, mtimeMs);
    if (lines.length === 0) return ok(`${shown} is empty.`);
    const first = args.offset ?? 1;
    if (first > lines.length) {
      return fail(`offset ${first} is past the end of ${shown} (${lines.length} lines).`);
    }
    const limit = args.limit ?? DEFAULT_LIMIT;
    const slice = lines.slice(first - 1, first - 1 + limit);
    const last = first + slice.length - 1;
    let text = numberLines(slice, first);
    if (last < lines.length) {
      text += `\n… [${lines.length - last} more lines; file has ${lines.length}. Continue with offset=${last + 1}.]`;
    }
    return ok(text);
  },
};
