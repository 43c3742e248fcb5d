// A worktree's work as a patch against where it started, for review (`/worktree diff`), for
// applying to the main checkout (`/worktree apply`), and as a sub-agent's diffstat. Uncommitted
// changes count as well as commits: the index of the worktree is staged for the comparison.
import { type GitOptions, WorktreeError, git } from "./git.js";
import { type RepoPlace, readMeta } from "./place.js";

async function base(place: RepoPlace, name: string): Promise<{ path: string; base: string }> {
  const meta = readMeta(place, name);
  if (!meta) throw new WorktreeError(`no worktree '${name}' that tern made (tern worktrees lists them)`);
  return { path: `${place.dir}/${name}`, base: meta.base };
}

/** The worktree's changes since it started: a binary-safe patch, and git's diffstat of it. */
export async function worktreeChanges(
  place: RepoPlace,
  name: string,
  opts: GitOptions = {},
): Promise<{ patch: string; stat: string }> {
  const wt = await base(place, name);
  await git(wt.path, ["add", "-A"], opts);
  // One diff gives both: git prints the stat, a blank line, then the patch.
  const both = await git(wt.path, ["diff", "--cached", "--binary", "--patch-with-stat", wt.base], opts);
  const at = both.indexOf("\ndiff --git ");
  if (at < 0) return { patch: "", stat: both.trimEnd() };
  return { patch: both.slice(at + 1), stat: both.slice(0, at).trimEnd() };
}

/** Applies a worktree's changes to the folder `target` (the main checkout); all or nothing. */
export async function applyWorktree(
  place: RepoPlace,
  name: string,
  target: string,
  opts: GitOptions = {},
): Promise<string> {
  const { patch, stat } = await worktreeChanges(place, name, opts);
  if (!patch) return `worktree '${name}' holds no changes`;
  // --check first: a patch that does not apply leaves the target untouched.
  await git(target, ["apply", "--check", "--binary"], { ...opts, input: patch });
  await git(target, ["apply", "--binary"], { ...opts, input: patch });
  return `applied worktree '${name}':\n${stat}`;
}
