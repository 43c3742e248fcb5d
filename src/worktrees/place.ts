// Where a repository keeps tern's worktrees: `<main checkout>/.tern/worktrees/<name>`, each beside
// a small `<name>.json` (the commit it started from), all kept out of `git status` by one line
// in the repository's `info/exclude`. From inside a linked worktree the main checkout is found
// through git's common folder, so a session in a worktree lists and removes its siblings.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { type GitOptions, WorktreeError, git, repoRoot } from "./git.js";

export const WORKTREES_DIR = join(".tern", "worktrees");
const EXCLUDE_LINE = "/.tern/worktrees/";

/** Whether `path` lies inside one of tern's worktrees (`…/.tern/worktrees/<name>`). */
export function isInTernWorktree(path: string): boolean {
  const parts = path.split(/[/\\]/);
  const [ternDir, worktreesDir] = WORKTREES_DIR.split(/[/\\]/);
  return parts.some((p, i) => p === ternDir && parts[i + 1] === worktreesDir && !!parts[i + 2]);
}

export interface RepoPlace {
  /** The main checkout's top folder. */
  root: string;
  /** git's common folder (`<root>/.git` for an ordinary repository). */
  commonDir: string;
  /** `<root>/.tern/worktrees`. */
  dir: string;
}

/** The repository around `cwd`, or a WorktreeError saying it is not in one. */
export async function repoPlace(cwd: string, opts: GitOptions = {}): Promise<RepoPlace> {
  const top = await repoRoot(cwd, opts);
  if (!top) throw new WorktreeError(`${cwd} is not inside a git repository`);
  const said = (await git(top, ["rev-parse", "--git-common-dir"], opts)).trim();
  const commonDir = isAbsolute(said) ? said : resolve(top, said);
  // A bare common folder has no main checkout: the worktrees then live under the one we are in.
  const root = basename(commonDir) === ".git" ? dirname(commonDir) : top;
  return { root, commonDir, dir: join(root, WORKTREES_DIR) };
}

/** Adds `/.tern/worktrees/` to the repository's `info/exclude` once. */
export function excludeWorktrees(place: RepoPlace): void {
  const file = join(place.commonDir, "info", "exclude");
  const text = existsSync(file) ? readFileSync(file, "utf8") : "";
  if (text.split("\n").some((line) => line.trim() === EXCLUDE_LINE)) return;
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${text}${text && !text.endsWith("\n") ? "\n" : ""}${EXCLUDE_LINE}\n`);
}

/** What tern remembers of a worktree it made. */
export interface WorktreeMeta {
  name: string;
  branch: string;
  /** The commit the branch started from: "no new commits" compares the branch with it. */
  base: string;
  created: string;
  /** `head`: a session's own worktree; `current-state`: a sub-agent's, with the parent's changes. */
  from: "head" | "current-state";
}

export const metaFile = (place: RepoPlace, name: string): string => join(place.dir, `${name}.json`);

export function readMeta(place: RepoPlace, name: string): WorktreeMeta | undefined {
  try {
    return JSON.parse(readFileSync(metaFile(place, name), "utf8")) as WorktreeMeta;
  } catch {
    return undefined;
  }
}

export function writeMeta(place: RepoPlace, meta: WorktreeMeta): void {
  mkdirSync(place.dir, { recursive: true });
  writeFileSync(metaFile(place, meta.name), `${JSON.stringify(meta, null, 2)}\n`);
}
