// A shadow git repository per workspace under TERN_HOME, its work tree pointed at the workspace.
// Snapshots are git trees written through a per-session index, so two sessions of one workspace
// never share an index and the workspace's own `.git` is never read or written: GIT_DIR points
// at the shadow, user and system git config are ignored (no hooks, no fsmonitor, no filters).
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CheckpointError } from "./errors.js";
import { FOLDER_MARK, isFolderMark, syncFolderMarks } from "./empty-folders.js";
import { changedPaths, countFiles, stage } from "./listing.js";
import { isFolderEntry, seedNestedRepos } from "./nested-repos.js";
import { BigFiles } from "./big-files.js";
import { excludeLines, TOO_BIG_TEXT, tooBig, writeExclude } from "./what-to-keep.js";

export { MAX_SNAPSHOT_FILE_BYTES, TOO_BIG_TEXT } from "./what-to-keep.js";

/** The tree of an empty folder, the same in every git repository. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** No line-ending filters, no fsmonitor, no hooks, no background gc, paths printed as they are. */
const GIT_SETTINGS = [
  "core.autocrlf=false",
  "core.fsmonitor=false",
  "core.quotepath=off",
  "gc.auto=0",
  "core.hooksPath=/dev/null",
  // Paths prefix-compressed: a 100,000-file index is read and written by every command.
  "index.version=4",
];

export interface TreeChange {
  /** git's letter: A (only in `to`), D (only in `from`), M, T. */
  status: string;
  path: string;
  fromBlob: string;
  toBlob: string;
}

export { CheckpointError } from "./errors.js";

interface GitResult {
  stdout: string;
  stderr: string;
}

/** Whether a usable `git` is on PATH (checked once per process). */
let gitAvailable: Promise<boolean> | undefined;
export function hasGit(): Promise<boolean> {
  gitAvailable ??= new Promise((resolve) => {
    execFile("git", ["--version"], { timeout: 10_000 }, (err) => resolve(!err));
  });
  return gitAvailable;
}

export interface ShadowRepoOptions {
  /** Folder of the shadow repository (one per workspace). */
  gitDir: string;
  /** The workspace: the shadow's work tree. */
  workTree: string;
  /** Session id: names the session's index file and the ref that keeps its snapshots alive. */
  sessionId: string;
  /**
   * Folders never snapshotted nor restored, when they lie inside the workspace: tern's own home
   * (its records, ledger and this very repository change all the time; in a snapshot they would
   * make every undo refuse, and a forced one would rewrite them).
   */
  leaveOut?: string[];
}

export class ShadowRepo {
  readonly gitDir: string;
  readonly workTree: string;
  readonly sessionId: string;
  private readonly indexFile: string;
  private readonly ref: string;
  private readonly leaveOut: string[];
  private initialized = false;
  /** The tree this process last wrote from the index: while nothing changed, it is the snapshot. */
  private indexTree: string | undefined;
  /** The blob of TOO_BIG_TEXT in this repository (written by init). */
  tooBigBlob = "";
  private readonly bigFiles: BigFiles;

  constructor(opts: ShadowRepoOptions) {
    this.gitDir = opts.gitDir;
    this.workTree = opts.workTree;
    this.sessionId = opts.sessionId;
    this.indexFile = join(opts.gitDir, "tern-index", opts.sessionId);
    this.ref = `refs/tern/${opts.sessionId}`;
    this.leaveOut = opts.leaveOut ?? [];
    this.bigFiles = new BigFiles(`${this.indexFile}.big`);
  }

  private env(withWorkTree: boolean): NodeJS.ProcessEnv {
    // Only what git needs: the caller's GIT_* variables must not redirect us into the user's repo.
    const env: NodeJS.ProcessEnv = {};
    for (const key of ["PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "SYSTEMROOT"])
      if (process.env[key] !== undefined) env[key] = process.env[key];
    if (withWorkTree) {
      env.GIT_DIR = this.gitDir;
      env.GIT_WORK_TREE = this.workTree;
      env.GIT_INDEX_FILE = this.indexFile;
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

  /** Runs git against the shadow; `okExits` are exit codes that are answers, not failures. */
  git(args: string[], input?: string, withWorkTree = true, okExits: number[] = []): Promise<GitResult> {
    const fullArgs = [...GIT_SETTINGS.flatMap((setting) => ["-c", setting]), ...args];
    // Spawning in a folder that is gone fails as "spawn git ENOENT", which reads as "no git".
    if (!existsSync(this.workTree))
      return Promise.reject(
        new CheckpointError(`the workspace ${this.workTree} no longer exists (moved or deleted)`),
      );
    return new Promise((resolve, reject) => {
      const child = execFile(
        "git",
        fullArgs,
        { cwd: this.workTree, env: this.env(withWorkTree), maxBuffer: 256 * 1024 * 1024, encoding: "utf8" },
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

  /** Creates the shadow repository if needed and clears locks a killed tern may have left. */
  async init(): Promise<void> {
    if (this.initialized) return;
    if (!existsSync(join(this.gitDir, "HEAD"))) {
      mkdirSync(this.gitDir, { recursive: true, mode: 0o700 });
      // `init` refuses GIT_WORK_TREE; the work tree is given to every later command instead.
      await this.git(["init", "--quiet", "--bare", this.gitDir], undefined, false);
      writeFileSync(
        join(this.gitDir, "description"),
        `tern checkpoints of ${this.workTree} (safe to delete: only undo history is lost)\n`,
      );
    }
    mkdirSync(join(this.gitDir, "tern-index"), { recursive: true, mode: 0o700 });
    // `--exclude-standard` reads the shadow's info/exclude beside the workspace's .gitignore files.
    mkdirSync(join(this.gitDir, "info"), { recursive: true, mode: 0o700 });
    writeExclude(
      join(this.gitDir, "info", "exclude"),
      excludeLines(this.workTree, this.leaveOut),
      this.sessionId,
    );
    this.tooBigBlob = (await this.git(["hash-object", "-w", "--stdin"], TOO_BIG_TEXT)).stdout.trim();
    // The session lock makes this process the only user of this index and ref: a lock file here
    // can only be left by a tern that was killed mid-snapshot.
    rmSync(`${this.indexFile}.lock`, { force: true });
    rmSync(join(this.gitDir, `${this.ref}.lock`), { force: true });
    this.initialized = true;
  }

  /** Paths that differ from the session index: untracked, modified and deleted. */
  changedPaths(): Promise<string[]> {
    return changedPaths(this);
  }

  /** Files a first snapshot would hold (for `checkpoints.maxFiles`), nested repositories' too; stops past `cap`. */
  countFiles(cap = Number.POSITIVE_INFINITY): Promise<number> {
    return countFiles(this, cap);
  }

  /**
   * Writes the workspace's current state as a tree and returns its hash. Only paths git reports as
   * changed are restaged, so a snapshot of a large workspace with a few changes stays cheap.
   */
  async snapshot(previousTree: string | undefined, label: string): Promise<string> {
    await this.init();
    let changed = await this.changedPaths();
    // With nothing deleted, the empty folders can be listed beside the staging (see empty-folders.ts).

    // Nested repositories inside nested repositories surface one level per listing.
    for (let depth = 0; depth < 8 && changed.some(isFolderEntry); depth++) {
      if (!(await seedNestedRepos(this, changed.filter(isFolderEntry)))) break;
      changed = await this.changedPaths();
    }
    const files = changed.filter((path) => !isFolderEntry(path) && !isFolderMark(path));
    files.push(...(await this.bigFiles.released(this)));
    const big = new Set(files.filter((path) => tooBig(join(this.workTree, path))));
    const toStage = files.filter((path) => !big.has(path));
    await this.bigFiles.hold(this, [...big]);
    if (toStage.length > 0) await stage(this, toStage);
    const marksMoved = await syncFolderMarks(this, changed);
    if (files.length === 0 && !marksMoved && this.indexTree) return this.indexTree;
    const tree = (await this.git(["write-tree"])).stdout.trim();
    if (tree !== previousTree) await this.keepAlive(tree, label);
    this.indexTree = tree;
    return tree;
  }

  /** Trees are only kept while a ref reaches them: chain a commit per snapshot under the session's ref. */
  private async keepAlive(tree: string, label: string): Promise<void> {
    const parent = await this.git(["rev-parse", "--verify", "--quiet", this.ref]).then(
      (r) => r.stdout.trim(),
      () => "",
    );
    const args = ["commit-tree", tree, "-m", label];
    if (parent) args.push("-p", parent);
    const commit = (await this.git(args)).stdout.trim();
    await this.git(["update-ref", this.ref, commit]);
  }

  /** Paths whose content differs between two trees, with git's status letter and blobs (from → to). */
  async treeChanges(from: string, to: string): Promise<TreeChange[]> {
    if (from === to) return [];
    const { stdout } = await this.git(["diff-tree", "-r", "-z", "--no-renames", "--raw", from, to]);
    const parts = stdout.split("\0").filter((p) => p.length > 0);
    const out: TreeChange[] = [];
    // Each entry: ":<mode> <mode> <blob> <blob> <status>" then the path.
    for (let i = 0; i + 1 < parts.length; i += 2) {
      const [, , fromBlob, toBlob, status] = parts[i].split(" ");
      out.push({ status: status[0], path: parts[i + 1], fromBlob, toBlob });
    }
    return out;
  }

  /** Which of `paths` the workspace's ignore files (as they are on disk now) ignore. */
  async ignoredPaths(paths: string[]): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    // Exit 1 means none is ignored; --no-index judges by the rules alone, not by what the index holds.
    const { stdout } = await this.git(
      ["check-ignore", "--no-index", "-z", "--stdin"],
      `${paths.join("\0")}\0`,
      true,
      [1],
    );
    return new Set(stdout.split("\0").filter((p) => p.length > 0));
  }

  /** Drops paths from the session index (files left in place that the next snapshot must not hold). */
  async forget(paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    await this.git(["update-index", "-z", "--force-remove", "--stdin"], `${paths.join("\0")}\0`);
  }

  /** Writes the files of `tree` for the given paths into the workspace. */
  async checkoutPaths(tree: string, paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    await this.git(
      ["checkout", tree, "--pathspec-from-file=-", "--pathspec-file-nul"],
      `${paths.map((p) => `:(literal)${p}`).join("\0")}\0`,
    );
  }

  /** A unified diff between two trees (coloured on request). */
  async diff(from: string, to: string, color: boolean): Promise<string> {
    const { stdout } = await this.git([
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

  async hasObject(hash: string): Promise<boolean> {
    return this.git(["cat-file", "-e", hash]).then(
      () => true,
      (err) => {
        if (!existsSync(this.workTree)) throw err;
        return false;
      },
    );
  }
}
