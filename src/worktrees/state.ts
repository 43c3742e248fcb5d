// What a worktree holds beyond where it started: uncommitted changes and new commits. A session's
// worktree with neither is removed at exit with its branch (nothing was lost); one with either is
// kept and named, so the person can review, merge or throw it away.
import { rmSync } from "node:fs";
import { type GitOptions, WorktreeError, git } from "./git.js";
import { BRANCH_PREFIX } from "./names.js";
import { type RepoPlace, metaFile, readMeta } from "./place.js";

export interface WorktreeState {
  name: string;
  branch: string;
  path: string;
  /** Paths `git status` reports in the worktree (staged, unstaged, untracked). */
  changed: number;
  /** Commits on the branch since it started. */
  commits: number;
  /** The commit it started from, when tern made it. */
  base?: string;
}

export async function worktreeState(
  place: RepoPlace,
  name: string,
  opts: GitOptions = {},
): Promise<WorktreeState> {
  const path = `${place.dir}/${name}`;
  const meta = readMeta(place, name);
  const branch = meta?.branch ?? `${BRANCH_PREFIX}${name}`;
  const status = await git(path, ["status", "--porcelain", "-z", "--untracked-files=all"], opts);
  const changed = status.split("\0").filter((entry) => /^.. /.test(entry)).length;
  const commits = meta
    ? Number((await git(path, ["rev-list", "--count", `${meta.base}..HEAD`], opts)).trim())
    : 0;
  return { name, branch, path, changed, commits, base: meta?.base };
}

export interface RemoveOptions extends GitOptions {
  /** Remove even with uncommitted changes, and delete the branch even with new commits. */
  force?: boolean;
}

/** Removes a worktree, and its branch when that holds nothing new; says what it kept. */
export async function removeWorktree(
  place: RepoPlace,
  name: string,
  opts: RemoveOptions = {},
): Promise<string> {
  const state = await worktreeState(place, name, opts).catch(() => {
    throw new WorktreeError(`no worktree '${name}' (tern worktrees lists them)`);
  });
  if (state.changed > 0 && !opts.force)
    throw new WorktreeError(
      `worktree '${name}' has ${state.changed} uncommitted change(s); commit them or use --force`,
    );
  await git(place.root, ["worktree", "remove", "--force", state.path], opts);
  rmSync(metaFile(place, name), { force: true });
  if (state.commits > 0 && !opts.force)
    return `removed worktree '${name}'; branch ${state.branch} kept (${state.commits} new commit(s))`;
  await git(place.root, ["branch", "-D", state.branch], opts).catch(() => undefined);
  return `removed worktree '${name}' and branch ${state.branch}`;
}

/** At a session's end: removes an unchanged worktree; otherwise the line naming what was kept. */
export async function finishWorktree(
  place: RepoPlace,
  name: string,
  opts: GitOptions = {},
): Promise<{ removed: boolean; message: string }> {
  const state = await worktreeState(place, name, opts);
  if (state.changed === 0 && state.commits === 0) {
    await removeWorktree(place, name, opts);
    return { removed: true, message: "" };
  }
  const what = [
    state.changed > 0 ? `${state.changed} changed file(s)` : "",
    state.commits > 0 ? `${state.commits} new commit(s)` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return { removed: false, message: `worktree kept: ${state.path} (branch ${state.branch}; ${what})` };
}
