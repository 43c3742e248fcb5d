// Shared steps of the editing tools: open the file so no link can redirect the write
// (safe-write.ts), the read-before-edit check on the opened file, and marking the result as read.
import { statSync } from "node:fs";
import { resolvePath } from "../paths.js";
import type { ToolContext, ToolResult } from "../types.js";
import { isOpened, openForWrite, replaceContent } from "./safe-write.js";

export interface Editing {
  /** The current text (empty for a file this call creates). */
  text: string;
  existed: boolean;
}

/**
 * Opens `abs`, checks the turn read it (R-TOOL-1) when it exists, lets `change` compute the new
 * content (a string) or give up (a result), and writes it through the same descriptor. A file
 * this turn wrote counts as read.
 */
export async function editThroughDescriptor(
  abs: string,
  ctx: ToolContext,
  opts: { create: boolean; read: boolean; shown: string },
  change: (current: Editing) => string | ToolResult,
): Promise<{ result: ToolResult } | { existed: boolean; content: string }> {
  const check = (st: { mtimeMs: number }) => ctx.readTracker.checkEditable(abs, st.mtimeMs);
  const opened = await openForWrite(abs, ctx, { ...opts, check });
  if (!isOpened(opened)) return { result: opened };
  const { handle, stats } = opened;
  try {
    const text = stats && opts.read ? await handle.readFile("utf8") : "";
    const next = change({ text, existed: stats !== undefined });
    if (typeof next !== "string") return { result: next };
    ctx.readTracker.markRead(abs, await replaceContent(handle, next));
    return { existed: stats !== undefined, content: next };
  } finally {
    await handle.close();
  }
}

/**
 * The read-before-edit refusal an existing file would get, known before the call runs, so it is
 * never offered for approval first (R-UI-19). A missing or odd file is left to the call itself.
 */
export function unreadRefusal(
  args: { path: string },
  ctx: Pick<ToolContext, "cwd" | "readTracker">,
): string | null {
  const abs = resolvePath(ctx.cwd, args.path);
  let mtimeMs: number;
  try {
    const st = statSync(abs);
    if (!st.isFile()) return null;
    mtimeMs = st.mtimeMs;
  } catch {
    return null;
  }
  return ctx.readTracker.checkEditable(abs, mtimeMs);
}
