// Writing a patch's files all or none (R-EDIT-1). Every file is first opened the way write_file
// and edit_file open theirs (safe-write.ts: no link can redirect the write, and the executor
// judges each file on what was opened: workspace, protected paths, symlinks, hard links); only
// when every file was admitted is anything written. A failure while writing puts back what was
// already written, removes what was created, and folders made for new files go again.
import { existsSync } from "node:fs";
import { type FileHandle, rmdir, unlink, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { errorMessage, fail } from "../results.js";
import type { ToolContext, ToolResult } from "../types.js";
import { isOpened, openForWrite, replaceContent } from "./safe-write.js";

export interface FileChange {
  abs: string;
  shown: string;
  /** The new content; `null` deletes the file. */
  next: string | null;
}

interface Opened {
  change: FileChange;
  handle: FileHandle;
  /** Absent for a file this patch creates. */
  original?: string;
  /** Folders created for a new file, deepest first. */
  madeDirs: string[];
  written?: boolean;
  deleted?: boolean;
}

function missingFolders(abs: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(abs); !existsSync(dir) && dirname(dir) !== dir; dir = dirname(dir)) out.push(dir);
  return out;
}

async function undoOpen(o: Opened): Promise<void> {
  if (o.original === undefined && !o.deleted) await unlink(o.change.abs).catch(() => {});
  for (const dir of o.madeDirs) await rmdir(dir).catch(() => {});
}

/** Opens every file (each judged), then writes them all; returns a result only when it did not. */
export async function commitChanges(
  changes: readonly FileChange[],
  ctx: ToolContext,
): Promise<ToolResult | null> {
  const opened: Opened[] = [];
  const closeAll = async () => {
    for (const o of opened) await o.handle.close().catch(() => {});
  };
  try {
    for (const change of changes) {
      const deleting = change.next === null;
      if (deleting && !existsSync(change.abs)) continue; // added and deleted by the same patch
      const madeDirs = deleting ? [] : missingFolders(change.abs);
      const got = await openForWrite(change.abs, ctx, { create: !deleting, read: true, shown: change.shown });
      if (!isOpened(got)) {
        for (const dir of madeDirs) await rmdir(dir).catch(() => {});
        for (const o of opened) await undoOpen(o);
        return nothingApplied(got);
      }
      const original = got.stats ? await got.handle.readFile("utf8") : undefined;
      opened.push({ change, handle: got.handle, original, madeDirs: got.stats ? [] : madeDirs });
    }
  } catch (err) {
    for (const o of opened) await undoOpen(o);
    await closeAll();
    return fail(`apply_patch: nothing was changed: ${errorMessage(err)}`);
  }
  try {
    for (const o of opened) {
      if (o.change.next === null) continue;
      ctx.readTracker.markRead(o.change.abs, await replaceContent(o.handle, o.change.next));
      o.written = true;
    }
    for (const o of opened) {
      if (o.change.next !== null) continue;
      await unlink(o.change.abs);
      o.deleted = true;
    }
    return null;
  } catch (err) {
    await rollBack(opened);
    return fail(`apply_patch: nothing was changed (a write failed and was undone): ${errorMessage(err)}`);
  } finally {
    await closeAll();
  }
}

async function rollBack(opened: readonly Opened[]): Promise<void> {
  for (const o of opened) {
    if (o.deleted && o.original !== undefined) await writeFile(o.change.abs, o.original).catch(() => {});
    else if (o.written && o.original !== undefined)
      await replaceContent(o.handle, o.original).catch(() => {});
    else await undoOpen(o);
  }
}

/** A refusal of one file refuses the patch: said so, with the outcome the gate gave. */
function nothingApplied(result: ToolResult): ToolResult {
  const said = result.content.map((p) => (p.type === "text" ? p.text : "")).join("");
  return { ...result, content: [{ type: "text", text: `${said} Nothing in the patch was applied.` }] };
}
