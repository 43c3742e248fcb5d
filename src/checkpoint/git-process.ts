// Running git for the shadow repository: a fixed environment (the caller's GIT_* variables and the
// user's and system's config never apply, so nothing redirects us into the user's repository),
// fixed settings, and the session's own git folder. That folder (`tern-index/<id>.git`) takes
// its objects, refs and config from the shadow (a `commondir` file, as git's linked worktrees do)
// and has its own HEAD, pointing at the session's ref: `git status` then compares the index with
// the session's last snapshot (a few entries) instead of listing the whole index as new, and
// the split index's shared part (see GIT_SETTINGS) lives there, beside the session's files.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { programPath } from "../programs/program-path.js";
import { withBorrowed } from "./borrowed-objects.js";
import { CheckpointError } from "./errors.js";

/** No line-ending filters, no fsmonitor (but tern's own, see gitCommand), no hooks, no background gc, paths printed as they are. */
const GIT_SETTINGS = [
  "core.autocrlf=false",
  "core.fsmonitor=false",
  "core.quotepath=off",
  "gc.auto=0",
  "core.hooksPath=/dev/null",
  // Paths prefix-compressed: a 100,000-file index is read and written by every command.
  "index.version=4",
  // A split index: the bulk is written once (a shared file), each command then writes only what
  // changed (a 100,000-file index is ~7 MB; staging three files rewrote all of it). Shared files
  // are kept until the session's folder goes (an idle session must still find its own).
  "core.splitIndex=true",
  "splitIndex.sharedIndexExpire=never",
];

/** Paths as git's `-z --stdin` reads them: each ended by a NUL. */
export const nul = (paths: readonly string[]): string => `${paths.join("\0")}\0`;

/**
 * `git check-ignore` of paths given on stdin (`nul`): --no-index judges by the ignore rules alone,
 * not by what the index holds (git 2.39 looked each path up in the index by a walk: 200 folders
 * against a 100,000-entry index took 0.7 s, 13 ms without). Exit 1 means none is ignored.
 */
export const CHECK_IGNORE = { args: ["check-ignore", "--no-index", "-z", "--stdin"], okExits: [1] };

/** The paths of check-ignore's `-z` answer. */
export const nulPaths = (stdout: string): Set<string> =>
  new Set(stdout.split("\0").filter((p) => p.length > 0));

/** git reads `.gitignore` files: a changed one may show or hide paths (and empty folders). */
export const isIgnoreFile = (path: string) => path === ".gitignore" || path.endsWith("/.gitignore");

export interface GitResult {
  stdout: string;
  stderr: string;
}

/**
 * The `git` the shadow runs: from an absolute PATH entry outside the workspace (§10), so a
 * repository's own `node_modules/.bin/git` is never the one that snapshots it.
 */
export function gitProgram(workTree?: string): string | undefined {
  return programPath("git", { workspaces: workTree ? [workTree] : [] });
}

/** The shadow's `git`, or a CheckpointError saying none was found where §10 allows one. */
export function requiredGitProgram(workTree: string): string {
  const git = gitProgram(workTree);
  if (!git) throw new CheckpointError("git was not found on an absolute PATH entry outside the workspace");
  return git;
}

/** Whether a usable `git` is on PATH (checked once per process). */
let gitAvailable: Promise<boolean> | undefined;
export function hasGit(): Promise<boolean> {
  gitAvailable ??= new Promise((resolve) => {
    const git = gitProgram();
    if (!git) return resolve(false);
    execFile(git, ["--version"], { timeout: 10_000 }, (err) => resolve(!err));
  });
  return gitAvailable;
}

export interface GitPlace {
  /** The shadow repository. */
  gitDir: string;
  /** The session's git folder (see above). */
  sessionGitDir: string;
  /** The session's ref its HEAD names. */
  ref: string;
  indexFile: string;
  workTree: string;
  /** git's fsmonitor hook for this session (fsmonitor-hook.ts), while a change watch vouches for it. */
  fsmonitorHook?: string;
}

/** Makes the session's git folder once the shadow exists (a later command would fail without it). */
export function ensureSessionGitDir(place: GitPlace): boolean {
  if (existsSync(join(place.sessionGitDir, "HEAD"))) return true;
  if (!existsSync(join(place.gitDir, "HEAD"))) return false;
  mkdirSync(place.sessionGitDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(place.sessionGitDir, "commondir"), "../..\n");
  writeFileSync(join(place.sessionGitDir, "HEAD"), `ref: ${place.ref}\n`);
  return true;
}

function gitEnv(place: GitPlace, withWorkTree: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT"])
    if (process.env[key] !== undefined) env[key] = process.env[key];
  if (withWorkTree) {
    env.GIT_DIR = ensureSessionGitDir(place) ? place.sessionGitDir : place.gitDir;
    env.GIT_WORK_TREE = place.workTree;
    env.GIT_INDEX_FILE = place.indexFile;
  }
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_AUTHOR_NAME: "tern",
    GIT_AUTHOR_EMAIL: "tern@localhost",
    GIT_COMMITTER_NAME: "tern",
    GIT_COMMITTER_EMAIL: "tern@localhost",
  };
}

/** The command line and environment of a git command for the shadow (for a caller that streams its input). */
export function gitCommand(
  place: GitPlace,
  args: string[],
  withWorkTree = true,
): { args: string[]; env: NodeJS.ProcessEnv } {
  // Every command on the index carries the hook: one without it would drop the index's token.
  // git 2.39 rewrites a split index's shared part (7 MB for 100,000 files, kept for good) at
  // each update-index while fsmonitor is on: the index is whole meanwhile.
  const hook =
    withWorkTree && place.fsmonitorHook
      ? [
          "-c",
          `core.fsmonitor=${place.fsmonitorHook}`,
          "-c",
          "core.fsmonitorHookVersion=2",
          "-c",
          "core.splitIndex=false",
        ]
      : [];
  // A shadow borrowing the workspace's objects sees them only where it writes none (borrowed-objects.ts).
  const borrowed = withBorrowed(place.gitDir, args);
  return {
    args: [...GIT_SETTINGS.flatMap((setting) => ["-c", setting]), ...hook, ...borrowed.args],
    env: { ...gitEnv(place, withWorkTree), ...borrowed.env },
  };
}

/** Runs git for the shadow; `okExits` are exit codes that are answers, not failures. */
export function runGit(
  place: GitPlace,
  args: string[],
  input: string | Buffer | undefined,
  withWorkTree: boolean,
  okExits: number[],
): Promise<GitResult> {
  const { args: fullArgs, env } = gitCommand(place, args, withWorkTree);
  // Spawning in a folder that is gone fails as "spawn git ENOENT", which reads as "no git".
  if (!existsSync(place.workTree))
    return Promise.reject(
      new CheckpointError(`the workspace ${place.workTree} no longer exists (moved or deleted)`),
    );
  let git: string;
  try {
    git = requiredGitProgram(place.workTree);
  } catch (err) {
    return Promise.reject(err);
  }
  return new Promise((resolve, reject) => {
    const child = execFile(
      git,
      fullArgs,
      {
        cwd: place.workTree,
        env,
        maxBuffer: 256 * 1024 * 1024,
        encoding: "utf8",
      },
      (err, stdout, stderr) => {
        const code = typeof err?.code === "number" ? err.code : undefined;
        if (err && !(code !== undefined && okExits.includes(code))) {
          const why = (stderr || err.message).trim().split("\n")[0];
          reject(new CheckpointError(`git ${args[0]}: ${why}`));
        } else resolve({ stdout, stderr });
      },
    );
    if (input !== undefined) child.stdin?.end(input);
  });
}
