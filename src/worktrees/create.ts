// Making a worktree (R-WT-1, R-WT-2): a new branch `tern/<name>` from HEAD in
// `<repo>/.tern/worktrees/<name>`, `.worktreeinclude` copied in. A sub-agent's worktree starts
// from the parent's current state instead: the parent's uncommitted changes (staged, unstaged and
// untracked files) are applied and committed on the branch as its first commit, so the child
// sees what the parent sees and its own work is the difference from that commit.
import { copyFileSync, existsSync, lstatSync, mkdirSync, readlinkSync, symlinkSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { type GitOptions, WorktreeError, git } from "./git.js";
import { copyIncluded } from "./include.js";
import { branchOf, checkName, generatedName } from "./names.js";
import { commitAll } from "./commit.js";
import { WORKTREES_DIR, type RepoPlace, excludeWorktrees, repoPlace, writeMeta } from "./place.js";

export interface CreateOptions extends GitOptions {
  /** Where the request comes from (any folder of the repository). */
  cwd: string;
  name?: string;
  /** A generated name starts with this (a sub-agent's: its agent's name). */
  namePrefix?: string;
  /** Start from the parent's current state (uncommitted changes included) rather than HEAD. */
  fromCurrentState?: boolean;
}

export interface Worktree {
  name: string;
  branch: string;
  /** The worktree's top folder. */
  path: string;
  /** Where the session runs: the same folder of the repository the request came from. */
  cwd: string;
  /** The commit the branch started from. */
  base: string;
  /** `.worktreeinclude` files copied in. */
  included: string[];
  place: RepoPlace;
}

async function branchExists(root: string, branch: string, opts: GitOptions): Promise<boolean> {
  return git(root, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], opts).then(
    () => true,
    () => false,
  );
}

export async function createWorktree(opts: CreateOptions): Promise<Worktree> {
  const place = await repoPlace(opts.cwd, opts);
  const top = (await git(opts.cwd, ["rev-parse", "--show-toplevel"], opts)).trim();
  const head = await git(top, ["rev-parse", "--verify", "HEAD"], opts).catch(() => {
    throw new WorktreeError(`${top} has no commit yet: a worktree starts from one`);
  });
  const taken = (n: string) => existsSync(join(place.dir, n));
  const name = opts.name ? checkName(opts.name) : generatedName(taken, opts.namePrefix);
  const branch = branchOf(name);
  if (taken(name) || (await branchExists(place.root, branch, opts)))
    throw new WorktreeError(`worktree '${name}' exists already (tern worktrees lists them)`);
  excludeWorktrees(place);
  const path = join(place.dir, name);
  await git(top, ["worktree", "add", "--quiet", "-b", branch, path, head.trim()], opts);
  let base = head.trim();
  if (opts.fromCurrentState) base = (await carryChanges(top, path, opts)) ?? base;
  const included = await copyIncluded(place.root, path, opts);
  writeMeta(place, {
    name,
    branch,
    base,
    created: new Date().toISOString(),
    from: opts.fromCurrentState ? "current-state" : "head",
  });
  const sub = relative(top, opts.cwd);
  const cwd = sub && !sub.startsWith("..") && existsSync(join(path, sub)) ? join(path, sub) : path;
  return { name, branch, path, cwd, base, included, place };
}

/** Applies `from`'s uncommitted changes in `to` and commits them; the commit, or undefined if none. */
async function carryChanges(from: string, to: string, opts: GitOptions): Promise<string | undefined> {
  const diff = await git(from, ["diff", "--binary", "HEAD"], opts);
  if (diff) await git(to, ["apply", "--binary", "--whitespace=nowarn"], { ...opts, input: diff });
  const untracked = (await git(from, ["ls-files", "-z", "--others", "--exclude-standard"], opts))
    .split("\0")
    .filter((p) => p && !p.startsWith(`${WORKTREES_DIR}/`));
  for (const path of untracked) copyEntry(join(from, path), join(to, path));
  return commitAll(to, "tern: the parent's uncommitted changes", opts);
}

function copyEntry(from: string, to: string): void {
  const stat = lstatSync(from, { throwIfNoEntry: false });
  if (!stat || existsSync(to)) return;
  mkdirSync(dirname(to), { recursive: true });
  if (stat.isSymbolicLink()) symlinkSync(readlinkSync(from), to);
  else if (stat.isFile()) copyFileSync(from, to);
}
