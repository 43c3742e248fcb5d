// Shared steps of the editing tools: the read-before-edit check and marking the result as read.
import { stat, writeFile } from "node:fs/promises";
import type { ToolContext } from "../types.js";

/** Returns the error text when the edit is not authorized, else null. */
export async function checkEditable(abs: string, ctx: ToolContext): Promise<string | null> {
  const st = await stat(abs);
  return ctx.readTracker.checkEditable(abs, st.mtimeMs);
}

/** Writes and records the new mtime: a file this turn wrote counts as read (R-TOOL-1). */
export async function writeAndMark(abs: string, content: string, ctx: ToolContext): Promise<void> {
  await writeFile(abs, content, "utf8");
  const st = await stat(abs);
  ctx.readTracker.markRead(abs, st.mtimeMs);
}
