// Empty folders in snapshots. Git keeps files only, so a folder a turn made empty-handed
// (`mkdir build`) was left behind by undo, and one it removed never came back. Each empty folder
// is held in the snapshot as a mark entry `<folder>/.tern-empty-folder` (the empty blob): never
// written to the workspace, only read by restore (mkdir / rmdir) and left out of diffs.
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { nul } from "./git-process.js";

/** What these helpers need of the shadow repository (kept narrow: it imports them). */
interface ShadowRepo {
  readonly workTree: string;
  git(
    args: string[],
    input?: string,
    withWorkTree?: boolean,
    okExits?: number[],
  ): Promise<{ stdout: string }>;
  /** Which of the paths git's ignore rules (as they are on disk now) ignore. */
  ignoredPaths(paths: string[]): Promise<Set<string>>;
}

export const FOLDER_MARK = ".tern-empty-folder";
/** The empty blob, the same in every git repository. */
export const EMPTY_BLOB = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
/** Entries looked at per untracked folder while looking for empty folders inside it. */
const MAX_ENTRIES_SEEN = 10_000;
/** Never entered: git's own folders, and dependency trees (thousands of folders, ignored nearly always). */
export const NEVER_ENTERED = new Set([".git", "node_modules"]);

export const isFolderMark = (path: string): boolean =>
  path === FOLDER_MARK || path.endsWith(`/${FOLDER_MARK}`);

/** `a/b/.tern-empty-folder` → `a/b/`. */
export const markedFolder = (mark: string): string => mark.slice(0, -FOLDER_MARK.length);

/** Shown to a person: a mark as its folder, any other path as it is. */
export const shownPath = (path: string): string => (isFolderMark(path) ? markedFolder(path) : path);

function isEmptyFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory() && readdirSync(path).length === 0;
  } catch {
    return false;
  }
}

/** The empty folders at and under `folder` (workspace-relative, ending in `/`): leaves only. */
function emptyLeaves(workTree: string, folder: string, out: string[]): void {
  const queue = [folder];
  let seen = 0;
  while (queue.length > 0 && seen < MAX_ENTRIES_SEEN) {
    const dir = queue.shift()!;
    let names: string[];
    try {
      names = readdirSync(join(workTree, dir));
    } catch {
      continue;
    }
    if (names.length === 0) out.push(dir);
    for (const name of names) {
      if (NEVER_ENTERED.has(name) || name.includes("\n") || ++seen > MAX_ENTRIES_SEEN) continue;
      try {
        if (lstatSync(join(workTree, dir, name)).isDirectory()) queue.push(`${dir}${name}/`);
      } catch {
        // Gone meanwhile.
      }
    }
  }
}

/** Whether `dir/` is or lies under a folder never entered (git lists an unignored `node_modules/`). */
const insideSkipped = (dir: string): boolean => dir.split("/").some((part) => NEVER_ENTERED.has(part));

/** Marks for every empty folder of the workspace that git can see (not ignored, not in `.git`). */
async function wantedMarks(repo: ShadowRepo): Promise<Set<string>> {
  // With --directory git names untracked folders instead of their files, empty ones included.
  const { stdout } = await repo.git(["ls-files", "-z", "--others", "--directory", "--exclude-standard"]);
  const leaves: string[] = [];
  for (const entry of stdout.split("\0"))
    if (entry.endsWith("/") && !insideSkipped(entry) && !existsSync(join(repo.workTree, entry, ".git")))
      emptyLeaves(repo.workTree, entry, leaves);
  // git names an untracked folder as a whole, and a `build/` or `.cache/` below it is ignored
  // although its parent is not: a snapshot never holds a mark git would not list.
  const ignored = await repo.ignoredPaths(leaves);
  return new Set(leaves.filter((dir) => !ignored.has(dir)).map((dir) => `${dir}${FOLDER_MARK}`));
}

/**
 * Brings the index's folder marks in line with the workspace, after the files are staged (a folder
 * whose last file went is only seen as empty once the index no longer holds that file). `changed`
 * is the listing of paths that differ from the index; a mark never exists on disk, so every mark
 * in the index is in it. `walk` false (folder-stamps.ts: no folder can have become empty) looks
 * only at the marks held. True when a mark was added or dropped.
 */
export async function syncFolderMarks(repo: ShadowRepo, changed: string[], walk = true): Promise<boolean> {
  const held = changed.filter(isFolderMark);
  const kept = held.filter((mark) => isEmptyFolder(join(repo.workTree, markedFolder(mark))));
  const keptSet = new Set(kept);
  const stale = held.filter((mark) => !keptSet.has(mark));
  // Dropped first: a folder under a stale mark (emptied again) is then listed as empty itself.
  if (stale.length > 0) await repo.git(["update-index", "-z", "--force-remove", "--stdin"], nul(stale));
  const fresh = walk ? [...(await wantedMarks(repo))].filter((m) => !keptSet.has(m)) : [];
  if (fresh.length > 0) {
    await repo.git(["hash-object", "-w", "--stdin"], "");
    const info = fresh.map((m) => `100644 ${EMPTY_BLOB}\t${m}\0`).join("");
    await repo.git(["update-index", "-z", "--add", "--index-info"], info);
  }
  return stale.length > 0 || fresh.length > 0;
}
