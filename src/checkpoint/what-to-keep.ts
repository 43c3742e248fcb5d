// What snapshots keep: files up to 10 MB (a larger one is held as a fixed placeholder text, so
// its path stays known), and nothing of tern's own folders that lie inside the workspace.
import { existsSync, lstatSync, readFileSync, renameSync, type Stats, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, sep } from "node:path";

/** Files larger than this are left out of snapshots (R-CKPT-1). */
export const MAX_SNAPSHOT_FILE_BYTES = 10 * 1024 * 1024;
/**
 * What a snapshot holds in place of a file over the limit. The path stays in the tree, so a
 * restore knows the file existed (and leaves it alone) instead of taking it for one the turn
 * created and deleting it.
 */
export const TOO_BIG_TEXT =
  "tern: this file was over 10 MB when snapshotted, so checkpoints do not keep it\n";

/** Anchored ignore patterns for the folders under `workTree` that snapshots leave out. */
export function excludeLines(workTree: string, folders: string[]): string {
  const lines = ["# written by tern: folders of tern itself that snapshots leave out"];
  // tern's git worktrees (R-WT) are work trees of their own, each with its own sessions and snapshots.
  lines.push("/.tern/worktrees/");
  for (const folder of folders) {
    const rel = relative(workTree, folder);
    if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) continue;
    // Every character literal: glob characters, a leading ! or # and trailing spaces escaped.
    const escaped = rel
      .split(sep)
      .join("/")
      .replace(/[\\*?[\]!# ]/g, (c) => `\\${c}`);
    lines.push(`/${escaped}/`);
  }
  return `${lines.join("\n")}\n`;
}

/** Over the limit by length or by the blocks it holds on disk (R-CKPT-1). */
export function tooBig(path: string): boolean {
  try {
    return isTooBig(lstatSync(path));
  } catch {
    return false;
  }
}

/** `tooBig` for an lstat already in hand. */
export function isTooBig(st: Stats): boolean {
  return st.isFile() && (st.size > MAX_SNAPSHOT_FILE_BYTES || st.blocks * 512 > MAX_SNAPSHOT_FILE_BYTES);
}

/** Paths checked between two turns of the event loop (a first snapshot checks every file). */
const CHECKED_PER_TURN = 1000;

/** The paths of `paths` (relative to `workTree`) that are tooBig, never holding the event loop long. */
export async function tooBigOnes(workTree: string, paths: string[]): Promise<Set<string>> {
  const big = new Set<string>();
  for (let i = 0; i < paths.length; i += CHECKED_PER_TURN) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    for (const path of paths.slice(i, i + CHECKED_PER_TURN)) if (tooBig(join(workTree, path))) big.add(path);
  }
  return big;
}

/** Replaces the exclude file whole (write, then rename): another session's git may be reading it. */
export function writeExclude(file: string, lines: string, tag: string): void {
  if (existsSync(file) && readFileSync(file, "utf8") === lines) return;
  writeFileSync(`${file}.${tag}`, lines);
  renameSync(`${file}.${tag}`, file);
}
