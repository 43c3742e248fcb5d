// A shadow git repository per workspace under TERN_HOME, its work tree pointed at the workspace.
// Snapshots are git trees written through a per-session index, so two sessions of one workspace
// never share an index and the workspace's own `.git` is never written (read only to seed a
// first session, workspace-index-seed.ts): GIT_DIR points at the shadow (through the session's
// git folder, git-process.ts), user and system git config are ignored (no hooks, no filters).
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  ensureSessionGitDir,
  type GitPlace,
  type GitResult,
  CHECK_IGNORE,
  gitCommand,
  isIgnoreFile,
  nul,
  nulPaths,
  runGit,
} from "./git-process.js";
import { isFolderMark, syncFolderMarks } from "./empty-folders.js";
import { FolderStamps } from "./folder-stamps.js";
import { QuietWorkspace, statusInputs } from "./quiet-workspace.js";
import { type Changes, changedPaths, countFiles, stage } from "./listing.js";
import { isFolderEntry, seedNestedRepos } from "./nested-repos.js";
import { BigFiles } from "./big-files.js";
import { pruneSessionIndexes } from "./index-prune.js";
import { seedSessionIndex } from "./index-seed.js";
import { seedFromWorkspaceIndex, type WorkspaceSeed } from "./workspace-index-seed.js";
import { applyPreImages, type PreImages } from "./pre-images.js";
import { objectExists, type TreeChange, treeChanges, treeDiff } from "./tree-changes.js";
import { WatchedChanges } from "./watched-changes.js";
import { WatchedSnapshots } from "./watched-snapshot.js";
import { excludeLines, TOO_BIG_TEXT, tooBigOnes, writeExclude } from "./what-to-keep.js";

export { MAX_SNAPSHOT_FILE_BYTES, TOO_BIG_TEXT } from "./what-to-keep.js";
export { CheckpointError } from "./errors.js";
export { hasGit } from "./git-process.js";
export { PreImages, readPreImage } from "./pre-images.js";

/** The tree of an empty folder, the same in every git repository. */
export const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

export type { TreeChange } from "./tree-changes.js";

export interface ShadowRepoOptions {
  /** Folder of the shadow repository (one per workspace). */
  gitDir: string;
  /** The workspace: the shadow's work tree. */
  workTree: string;
  /** Session id: names the session's index file and the ref that keeps its snapshots alive. */
  sessionId: string;
  /** Folders never snapshotted nor restored inside the workspace: tern's home (its records change all the time). */
  leaveOut?: string[];
  /** Whether a live tern holds a session (its record lock): its index is never pruned. */
  sessionHeld?: (sessionId: string) => boolean;
  /** Watch a big workspace between snapshots, so git is told what changed (watched-changes.ts). */
  watchChanges?: boolean;
  /** With the watch: a snapshot of a few known paths runs no git (watched-snapshot.ts; default true). */
  withoutGit?: boolean;
}

export class ShadowRepo {
  readonly gitDir: string;
  readonly workTree: string;
  readonly sessionId: string;
  readonly indexFile: string;
  /** Where git runs for this session (git-process.ts). */
  private readonly place: GitPlace;
  private readonly ref: string;
  readonly leaveOut: string[];
  private readonly sessionHeld: ((sessionId: string) => boolean) | undefined;
  private initialized = false;
  /** The tree this process last wrote from the index: while nothing changed, it is the snapshot. */
  private indexTree: string | undefined;
  tooBigBlob = ""; // The blob of TOO_BIG_TEXT in this repository (written by init).
  private readonly bigFiles: BigFiles;
  private readonly folderStamps: FolderStamps;
  private readonly quiet: QuietWorkspace;
  /** The index started as another session's (index-seed.ts) or the workspace's own: a cheap first snapshot. */
  seeded = false;
  workspaceSeed: WorkspaceSeed | undefined;
  /** Whether the session's ref is known to exist (a snapshot's commit then names it as parent). */
  private refExists = false;
  private readonly changes: WatchedChanges | undefined;
  /** Snapshots taken without git when the watch vouches for what changed (watched-snapshot.ts). */
  private readonly watchedWay: WatchedSnapshots | undefined;

  constructor(opts: ShadowRepoOptions) {
    this.gitDir = opts.gitDir;
    this.workTree = opts.workTree;
    this.sessionId = opts.sessionId;
    this.indexFile = join(opts.gitDir, "tern-index", opts.sessionId);
    this.ref = `refs/tern/${opts.sessionId}`;
    this.leaveOut = opts.leaveOut ?? [];
    this.sessionHeld = opts.sessionHeld;
    const inputs = statusInputs(this.gitDir, this.indexFile);
    this.changes = opts.watchChanges ? new WatchedChanges(opts.workTree, inputs) : undefined;
    this.bigFiles = new BigFiles(`${this.indexFile}.big`);
    this.place = {
      gitDir: this.gitDir,
      sessionGitDir: `${this.indexFile}.git`,
      ref: this.ref,
      indexFile: this.indexFile,
      workTree: this.workTree,
    };
    this.folderStamps = new FolderStamps(opts.workTree);
    this.watchedWay = this.changes && new WatchedSnapshots(this.place, this.bigFiles, this.changes, opts);
    this.quiet = new QuietWorkspace(opts.workTree, inputs);
  }

  /** Runs git against the shadow; `okExits` are exit codes that are answers, not failures. */
  git(
    args: string[],
    input?: string | Buffer,
    withWorkTree = true,
    okExits: number[] = [],
  ): Promise<GitResult> {
    // After a watched snapshot's index catch-up: every command here sees the newest snapshot.
    const indexed = this.watchedWay?.indexed() ?? Promise.resolve();
    return indexed.then(() => runGit(this.place, args, input, withWorkTree, okExits));
  }

  /** The command line and environment `git` would get (a caller streaming a large input). */
  gitCommand(args: string[]): { args: string[]; env: NodeJS.ProcessEnv } {
    return gitCommand(this.place, args);
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
    ensureSessionGitDir(this.place);
    const seededFrom = seedSessionIndex(this);
    if (seededFrom) {
      this.seeded = true;
      // No ref yet for the other session (its snapshots all failed): status then lists more, no
      // harm. Made, it is known to exist: the first commit names it as parent without a rev-parse.
      const made = await this.git(["update-ref", this.ref, `refs/tern/${seededFrom}`]).catch(() => undefined);
      this.refExists = made !== undefined;
    } else this.seeded = (this.workspaceSeed = await seedFromWorkspaceIndex(this, this.ref)).seeded;
    // After the seed, which is the newest other index and so is kept.
    const held = this.sessionHeld;
    try {
      if (held) pruneSessionIndexes({ gitDir: this.gitDir, sessionId: this.sessionId, isLive: held });
    } catch {
      // Housekeeping only: a folder it cannot read or remove costs disk, never a snapshot.
    }
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
  async changedPaths(): Promise<string[]> {
    return (await changedPaths(this)).paths;
  }

  /** Files a first snapshot would hold (for `checkpoints.maxFiles`), nested repositories' too; stops past `cap`. */
  countFiles(cap = Number.POSITIVE_INFINITY): Promise<number> {
    return countFiles(this, cap);
  }

  /**
   * Writes the workspace's current state as a tree and returns its hash. Only paths git reports as
   * changed are restaged, so a snapshot of a large workspace with a few changes stays cheap.
   * `preImages` (a first snapshot beside tool batches): once every file is read they are closed
   * and win over what was read, which a call may have written meanwhile.
   */
  async snapshot(previousTree: string | undefined, label: string, preImages?: PreImages): Promise<string> {
    const tree = await this.snapshotNow(previousTree, label, preImages);
    this.changes?.settled();
    return tree;
  }

  private async snapshotNow(previousTree: string | undefined, label: string, preImages?: PreImages) {
    await this.init();
    // A small workspace provably as the last settled snapshot left it: no git (quiet-workspace.ts).
    if (!preImages && this.quiet.unchanged() && this.indexTree) return this.indexTree;
    // A big workspace: git is told what changed since the last snapshot, when that is known.
    const watched = this.changes && this.quiet.big ? await this.changes.take(this.place) : undefined;
    if (watched?.nothing && !preImages && this.indexTree) return this.indexTree;
    // Only a few known paths changed: no git on the waiting path (watched-snapshot.ts).
    const last = !preImages && previousTree === this.indexTree ? this.indexTree : undefined;
    const told = last && watched?.known && (await this.watchedWay?.take(last, watched.known, label));
    if (told) return (this.indexTree = told);
    if (await this.watchedWay?.beforeGit()) this.indexTree = undefined;
    // Read before the listing: a folder changed while this snapshot runs is seen by the next one.
    // Only writes since the last snapshot (the watch saw no path made or gone): no folder moved.
    const foldersMoved = !watched?.noNewPaths && this.folderStamps.moved();
    let listing: Changes = await changedPaths(this, watched?.noNewPaths);
    let changed = listing.paths;
    // Nested repositories inside nested repositories surface one level per listing.
    for (let depth = 0; depth < 8 && changed.some(isFolderEntry); depth++) {
      if (!(await seedNestedRepos(this, changed.filter(isFolderEntry)))) break;
      listing = await changedPaths(this);
      changed = listing.paths;
    }
    const walk = foldersMoved || listing.moved || changed.some(isIgnoreFile);
    const files = changed.filter((path) => !isFolderEntry(path) && !isFolderMark(path));
    files.push(...(await this.bigFiles.released(this)));
    const big = await tooBigOnes(this.workTree, files);
    const toStage = files.filter((path) => !big.has(path));
    await this.bigFiles.hold(this, [...big]);
    if (toStage.length > 0) await stage(this, toStage);
    const marksMoved = await syncFolderMarks(this, changed, walk);
    const before = preImages?.close();
    if (before?.size) await this.bigFiles.drop(this, await applyPreImages(this, before));
    const unchanged = files.length === 0 && !marksMoved && !before?.size ? this.indexTree : undefined;
    this.quiet.settle(!!unchanged && !walk && !preImages);
    if (unchanged && !walk) return unchanged;
    const tree = unchanged ?? (await this.git(["write-tree"])).stdout.trim();
    if (!unchanged && tree !== previousTree) await this.keepAlive(tree, label);
    if (walk) await this.folderStamps.keep(this, tree);
    this.indexTree = tree;
    return tree;
  }

  /** Stops watching the workspace (the session is over). */
  close(): Promise<void> {
    this.place.fsmonitorHook = this.changes?.stop();
    return this.watchedWay?.close() ?? Promise.resolve();
  }

  /** Trees are only kept while a ref reaches them: chain a commit per snapshot under the session's ref. */
  private async keepAlive(tree: string, label: string): Promise<void> {
    // Once the ref is known to exist, commit-tree resolves it itself (one git process fewer).
    const parent = this.refExists
      ? this.ref
      : await this.git(["rev-parse", "--verify", "--quiet", this.ref]).then(
          (r) => r.stdout.trim(),
          () => "",
        );
    const args = ["commit-tree", tree, "-m", label];
    if (parent) args.push("-p", parent);
    const commit = (await this.git(args)).stdout.trim();
    await this.git(["update-ref", this.ref, commit]);
    this.refExists = true;
  }

  /** Paths whose content differs between two trees, with git's status letter and blobs (from → to). */
  treeChanges(from: string, to: string): Promise<TreeChange[]> {
    return treeChanges(this, from, to);
  }

  /** Which of `paths` the workspace's ignore files (as they are on disk now) ignore. */
  async ignoredPaths(paths: string[]): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    return nulPaths((await this.git(CHECK_IGNORE.args, nul(paths), true, CHECK_IGNORE.okExits)).stdout);
  }

  /** Drops paths from the session index (files left in place that the next snapshot must not hold). */
  async forget(paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    await this.git(["update-index", "-z", "--force-remove", "--stdin"], nul(paths));
    this.indexTree = undefined;
  }

  /** Writes the files of `tree` for the given paths into the workspace. */
  async checkoutPaths(tree: string, paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    await this.git(
      ["checkout", tree, "--pathspec-from-file=-", "--pathspec-file-nul"],
      nul(paths.map((p) => `:(literal)${p}`)),
    );
    // The index now holds these paths as `tree` has them: the next snapshot writes its tree anew.
    this.indexTree = undefined;
  }

  /** A unified diff between two trees (coloured on request). */
  diff(from: string, to: string, color: boolean): Promise<string> {
    return treeDiff(this, from, to, color);
  }

  hasObject(hash: string): Promise<boolean> {
    return objectExists(this, hash);
  }
}
