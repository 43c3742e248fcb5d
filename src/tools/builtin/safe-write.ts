// Writing a file the model names so that no link can redirect it (§10, R-TOOL-3): the file is
// opened first (the last component with O_NOFOLLOW, so a symlink is seen as one), where it really
// landed and how many hard links it has are read from the open descriptor, and only then is the
// write judged (ctx.admitWrite) and made through that same descriptor. A link planted between
// the approval and the write, or by an earlier call of the batch, is judged as what it is.
import { constants, type Stats } from "node:fs";
import { type FileHandle, mkdir, open, readlink, unlink } from "node:fs/promises";
import { dirname } from "node:path";
import { realPathLoose } from "../paths.js";
import { fail } from "../results.js";
import type { ToolContext, ToolResult, WriteTarget } from "../types.js";
import { fileKind } from "./safe-read.js";

export interface OpenedForWrite {
  handle: FileHandle;
  /** Absent for a file this call creates. */
  stats?: Stats;
}

const { O_NOFOLLOW, O_NONBLOCK, O_CREAT, O_EXCL, O_RDWR, O_WRONLY } = constants;
const code = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** Where an open descriptor really points (Linux: /proc); elsewhere the path with its links followed. */
async function realOf(handle: FileHandle, path: string): Promise<string> {
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return realPathLoose(path);
  }
}

/** A denial from the gate: the call did not run. */
const refused = (text: string): ToolResult => ({ outcome: "denied", content: [{ type: "text", text }] });

export interface WriteOptions {
  create: boolean;
  read: boolean;
  /** The path as shown to the model. */
  shown: string;
  /** A refusal that needs no person (read-before-edit), checked on the opened file before the gate may ask. */
  check?: (stats: Stats) => string | null;
}

/**
 * Opens `abs` for a write, judged on what was opened. `create`: a missing file is created (its
 * parents too) once the gate admits where it would land. Returns the open file, or the result
 * to give the model (not found, not a regular file, refused).
 */
export async function openForWrite(
  abs: string,
  ctx: ToolContext,
  opts: WriteOptions,
): Promise<OpenedForWrite | ToolResult> {
  // Non-blocking: a FIFO without a reader fails at once (ENXIO) instead of hanging the open.
  const flags = (opts.read ? O_RDWR : O_WRONLY) | O_NONBLOCK;
  let handle: FileHandle | undefined;
  let symlink = false;
  try {
    handle = await open(abs, flags | O_NOFOLLOW);
  } catch (err) {
    if (code(err) === "ELOOP") symlink = true;
    else if (code(err) === "ENXIO") return fail(`${opts.shown} is not a regular file.`);
    else if (code(err) === "EISDIR") return fail(`${opts.shown} is a directory.`);
    else if (code(err) !== "ENOENT") throw err;
  }
  if (!handle && symlink) {
    try {
      handle = await open(abs, flags);
    } catch (err) {
      // A dangling link: the write would create its target.
      if (code(err) !== "ENOENT") throw err;
    }
  }
  if (handle) {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      await handle.close();
      return fail(`${opts.shown} is ${fileKind(stats)}, not a regular file.`);
    }
    const early = opts.check?.(stats);
    const verdict =
      early ??
      (await admit(ctx, { path: abs, real: await realOf(handle, abs), symlink, nlink: stats.nlink }));
    if (verdict) {
      await handle.close();
      return early ? fail(early) : refused(verdict);
    }
    return { handle, stats };
  }
  if (!opts.create) {
    const err = new Error(`no such file: ${abs}`) as NodeJS.ErrnoException;
    err.code = "ENOENT";
    throw err;
  }
  return createChecked(abs, ctx, flags, symlink);
}

/** A new file: judged where it would land, created there exclusively, and checked it landed there. */
async function createChecked(abs: string, ctx: ToolContext, flags: number, symlink: boolean) {
  const real = realPathLoose(abs);
  const verdict = await admit(ctx, { path: abs, real, symlink, nlink: 1 });
  if (verdict) return refused(verdict);
  await mkdir(dirname(real), { recursive: true });
  // O_EXCL: if something appeared there since, this fails rather than writing through it.
  const handle = await open(real, flags | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
  const landed = await realOf(handle, real);
  if (landed !== real) {
    // A parent folder was swapped for a link after the check: take back the empty file made.
    await handle.close();
    await unlink(landed).catch(() => {});
    return fail(`Not written: ${abs} moved to ${landed} while it was being written; try again.`);
  }
  return { handle };
}

async function admit(ctx: ToolContext, target: WriteTarget): Promise<string | null> {
  return ctx.admitWrite ? ctx.admitWrite(target) : null;
}

/** Replaces the whole content through the open descriptor; returns the new mtime. */
export async function replaceContent(handle: FileHandle, content: string): Promise<number> {
  const data = Buffer.from(content, "utf8");
  await handle.truncate(0);
  let done = 0;
  while (done < data.length) {
    const { bytesWritten } = await handle.write(data, done, data.length - done, done);
    done += bytesWritten;
  }
  return (await handle.stat()).mtimeMs;
}

export function isOpened(x: OpenedForWrite | ToolResult): x is OpenedForWrite {
  return "handle" in x;
}
