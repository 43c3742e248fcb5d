// What git says about the workspace against a session's index: the paths that differ (one `git
// status`, whose stat pass is parallel and whose untracked walk is cached; see changedPaths),
// and how many files a first snapshot would hold; and staging what changed.
import { isFolderMark } from "./empty-folders.js";
import { CheckpointError } from "./errors.js";
import { nul } from "./git-process.js";
import { countFilesIn, isFolderEntry } from "./nested-repos.js";
import { PRELOAD_MIN_FILES, preloadObjects } from "./object-preload.js";
import { stageFirstSnapshot } from "./first-snapshot.js";

interface ShadowRepo {
  readonly workTree: string;
  readonly indexFile: string;
  git(args: string[], input?: string): Promise<{ stdout: string }>;
  gitCommand(args: string[]): { args: string[]; env: NodeJS.ProcessEnv };
}

const entries = (stdout: string) => stdout.split("\0").filter((p) => p.length > 0);

/** What changed against the session index, and whether any path appeared or went (not only edits). */
export interface Changes {
  paths: string[];
  /** A file appeared, went, or an untracked folder showed up: folders may have become empty. */
  moved: boolean;
}

/** Untracked folders are expanded by ls-files in one call, unless there are this many (then all of them). */
const MAX_FOLDER_PATHSPECS = 200;

/**
 * Paths that differ from the session index: untracked, modified and deleted. One `git status`
 * in the session's own git folder (git-process.ts: its HEAD is the session's ref, so the
 * index-vs-HEAD half is a few entries, not the whole index): its stat pass runs on every core
 * (core.preloadIndex) and its untracked walk uses the untracked cache kept in the session index
 * (only folders whose mtime changed are read again). Untracked folders it names as `dir/` are
 * expanded into their files (nested repositories stay `dir/` entries) by one narrow ls-files.
 */
export async function changedPaths(repo: ShadowRepo, noNewPaths = false): Promise<Changes> {
  const { stdout } = await repo.git([
    "-c",
    "core.untrackedCache=true",
    "status",
    "--porcelain",
    "-z",
    "--no-renames",
    // The change watch saw only writes, no path made or moved: no untracked file can be new.
    noNewPaths ? "--untracked-files=no" : "--untracked-files=normal",
    "--ignore-submodules=all",
  ]);
  const paths: string[] = [];
  const folders: string[] = [];
  let moved = false;
  for (const entry of entries(stdout)) {
    const y = entry[1];
    const path = entry.slice(3);
    if (entry.startsWith("??")) {
      moved = true;
      if (path.endsWith("/")) folders.push(path);
      else paths.push(path);
    } else if (y !== " ") {
      if (y === "D" && !isFolderMark(path)) moved = true;
      paths.push(path);
    }
  }
  if (folders.length > 0) {
    const specs =
      folders.length > MAX_FOLDER_PATHSPECS ? [] : ["--", ...folders.map((f) => `:(literal)${f}`)];
    const inside = await repo.git(["ls-files", "-z", "--others", "--exclude-standard", ...specs]);
    paths.push(...entries(inside.stdout));
  }
  return { paths: [...new Set(paths)], moved };
}

/**
 * Number of files a first snapshot would hold (for the `checkpoints.maxFiles` limit), counting
 * the files of nested repositories too (snapshots walk into them); counting stops past `cap`.
 */
export async function countFiles(repo: ShadowRepo, cap: number): Promise<number> {
  const { stdout } = await repo.git(["ls-files", "-z", "--others", "--cached", "--exclude-standard"]);
  const listed = entries(stdout);
  let count = listed.filter((p) => !isFolderEntry(p)).length;
  for (const folder of listed.filter(isFolderEntry)) {
    if (count > cap) break;
    count += await countFilesIn(repo.workTree, folder, cap - count + 1);
  }
  return count;
}

/**
 * Stages `paths` (what the listing reported, big files left out) through `update-index --stdin`:
 * `git add` matches every path against every pathspec (a first snapshot of 100,000 files took
 * minutes) and, for a few paths, still cost ~4× more on a 100,000-file index. `--replace` lets a
 * file take the place of a folder and back. Many paths (a first snapshot) have their objects
 * written first, in packs, on every core (object-preload.ts), so update-index only hashes; should
 * that fail, update-index streams them into one pack itself rather than a loose file each (files
 * over core.bigFileThreshold are packed directly, so the threshold is lowered for that command).
 */
export async function stage(repo: ShadowRepo, paths: string[]): Promise<void> {
  // A first snapshot: each file read and hashed once, the index written in-process (first-snapshot.ts).
  const left = paths.length > PRELOAD_MIN_FILES ? await stageFirstSnapshot(repo, paths) : undefined;
  const rest = left ?? paths;
  if (rest.length === 0) return;
  const preloaded = rest.length > PRELOAD_MIN_FILES && (await preloadObjects(repo, rest));
  await updateIndex(repo, rest, rest.length > PRELOAD_MIN_FILES && !preloaded);
}

/** `update-index` of `paths`; `many` unwritten objects go into one pack (see stage). */
async function updateIndex(repo: ShadowRepo, paths: string[], many: boolean): Promise<void> {
  const threshold = many ? ["-c", "core.bigFileThreshold=1"] : [];
  const args = [...threshold, "update-index", "-z", "--add", "--remove", "--replace", "--stdin"];
  await repo.git(args, nul(paths)).catch(async (err) => {
    // A file removed or made unreadable between listing and staging is no reason to lose the snapshot.
    if (!(err instanceof CheckpointError)) throw err;
    await repo.git(["add", "--all", "--force", "--ignore-errors", "."]);
  });
}
