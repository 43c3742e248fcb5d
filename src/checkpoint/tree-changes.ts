// What differs between two snapshots: one `git diff-tree` (no work tree, no index), and their diff.
import { existsSync } from "node:fs";
import { FOLDER_MARK } from "./empty-folders.js";

export interface TreeChange {
  /** git's letter: A (only in `to`), D (only in `from`), M, T. */
  status: string;
  path: string;
  fromBlob: string;
  toBlob: string;
}

interface ShadowRepo {
  git(args: string[]): Promise<{ stdout: string }>;
}

/** Paths whose content differs between two trees, with git's status letter and blobs (from → to). */
export async function treeChanges(repo: ShadowRepo, from: string, to: string): Promise<TreeChange[]> {
  if (from === to) return [];
  const { stdout } = await repo.git(["diff-tree", "-r", "-z", "--no-renames", "--raw", from, to]);
  const parts = stdout.split("\0").filter((p) => p.length > 0);
  const out: TreeChange[] = [];
  // Each entry: ":<mode> <mode> <blob> <blob> <status>" then the path.
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const [, , fromBlob, toBlob, status] = parts[i].split(" ");
    out.push({ status: status[0], path: parts[i + 1], fromBlob, toBlob });
  }
  return out;
}

/** A unified diff between two trees (coloured on request), folder marks left out. */
export async function treeDiff(repo: ShadowRepo, from: string, to: string, color: boolean): Promise<string> {
  const { stdout } = await repo.git([
    "diff",
    "--no-ext-diff",
    "--no-renames",
    color ? "--color=always" : "--no-color",
    from,
    to,
    "--",
    ".",
    `:(exclude,glob)**/${FOLDER_MARK}`,
  ]);
  return stdout;
}

/** Whether the shadow holds `hash`; a workspace that is gone is an error, not a "no". */
export function objectExists(repo: ShadowRepo & { workTree: string }, hash: string): Promise<boolean> {
  return repo.git(["cat-file", "-e", hash]).then(
    () => true,
    (err) => {
      if (!existsSync(repo.workTree)) throw err;
      return false;
    },
  );
}
