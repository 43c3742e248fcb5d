// A later snapshot of a big workspace when the change watch vouches for exactly which paths were
// written, made or removed since the last one (R-BIG-1 amended: a bash round adds ≤ 30 ms): no
// `git status` and no index on the waiting path. The changed files are hashed and written as
// loose objects in-process, the new tree is the last one with only the trees on those paths
// written again (tree-rewrite.ts), and the commit that keeps it is written in-process too. The
// session index (~7 MB for 100,000 files) and the session's ref catch up afterwards, in the
// background (IndexCatchUp): every git command the shadow runs on the index waits for that
// first (shadow-repo.ts), so an undo, a diff or a snapshot that falls back to `git status` reads
// an index that holds exactly this tree, and the ref moves only after the index.
//
// What stays with the `git status` way (undefined here): a path the watch names that is a new
// folder, an ignore, attributes or `.git` path (nested repositories), a folder mark's name, a file
// over 10 MB or one held as a big-file placeholder, a folder the snapshot held that lost its last
// entry (the empty-folder marks are the walk's), a path changing kind (file ⇄ folder), anything
// but a file or a link, and more than MAX_PATHS paths. A file the last tree does not hold is kept
// only when `git check-ignore` (the ignore files as they are now) does not ignore it; files under
// an attributes file (`.gitattributes` in a folder above, or the shadow's or the user's) are
// hashed by `git hash-object`, which applies them, instead of in-process.
import { existsSync, lstatSync, readFileSync, readlinkSync, type Stats } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { FOLDER_MARK } from "./empty-folders.js";
import { formatCommit, LooseObjects, TREE_MODE } from "./git-objects.js";
import {
  CHECK_IGNORE,
  type GitPlace,
  gitCommand,
  nul,
  nulPaths,
  requiredGitProgram,
  runGit,
} from "./git-process.js";
import { entryAt, type PathChange, rewriteTree } from "./tree-rewrite.js";
import type { WatchedChanges } from "./watched-changes.js";
import { isTooBig } from "./what-to-keep.js";

/** More changed paths than this: the `git status` way (its cost no longer stands out). */
export const MAX_PATHS = 256;
/** The index catches up once snapshots pause this long (or at once when something needs it). */
const QUIET_MS = 1000;
/** Paths queued for the index before it catches up without waiting for a pause. */
const MAX_PENDING = 4096;

/** Names that change what git lists or how it stores, or that git never holds (`.git`). */
const LISTING_NAMES = new Set([".gitignore", ".gitattributes", ".git", FOLDER_MARK]);

export interface Vouched {
  paths: string[];
  /** A path was made, removed or moved (not only written). */
  appeared: boolean;
}

interface Hashed {
  path: string;
  st: Stats;
}

const fileMode = (st: Stats): string =>
  st.isSymbolicLink() ? "120000" : (st.mode & 0o100) !== 0 ? "100755" : "100644";

export class WatchedSnapshots {
  private readonly objects: LooseObjects;
  private readonly catchUp: IndexCatchUp;
  /** The commit under the session's ref when this way wrote it (read again after the git way ran). */
  private lastCommit: string | undefined;
  /** Snapshots taken this way (a test tells the two ways apart by it). */
  taken = 0;

  constructor(
    private readonly place: GitPlace,
    private readonly bigFiles: { holds(path: string): boolean },
    /** The change watch: told which takes ran no git, and when tern itself writes the index. */
    private readonly changes: WatchedChanges,
    /** `withoutGit: false`: always the `git status` way (the watch only tells git what changed). */
    private readonly opts: { withoutGit?: boolean } = {},
  ) {
    this.objects = new LooseObjects(join(place.gitDir, "objects"), () => {
      const { args, env } = gitCommand({ ...place, fsmonitorHook: undefined }, ["cat-file", "--batch"]);
      // Never a bare "git" searched on PATH at spawn (§10): no git found is an error.
      return { command: requiredGitProgram(place.workTree), args, env, cwd: place.workTree };
    });
    this.catchUp = new IndexCatchUp(place, (busy) => changes.indexWrites(busy));
  }

  /**
   * The snapshot of `root` (the last tree, which the index holds or will hold) with `vouched`
   * applied, or undefined when it must be taken the `git status` way.
   */
  async take(root: string, vouched: Vouched, label: string): Promise<string | undefined> {
    if (this.opts.withoutGit === false || this.catchUp.failed || vouched.paths.length > MAX_PATHS)
      return undefined;
    const plan = await this.plan(root, vouched).catch(() => undefined);
    if (!plan) return undefined;
    const rewritten = await rewriteTree(this.objects, root, plan).catch(() => undefined);
    if (!rewritten) return undefined;
    if (rewritten.tree === root) return this.carried(root);
    // The ref's commit, when the last snapshot was not taken this way (none: a first commit).
    if (!this.lastCommit) {
      const ref = await this.git(["rev-parse", "--verify", "--quiet", this.place.ref], undefined, [1]).catch(
        () => undefined,
      );
      if (!ref) return undefined;
      this.lastCommit = ref.stdout.trim() || undefined;
    }
    const commit = this.objects.write(
      "commit",
      formatCommit(rewritten.tree, this.lastCommit, label, new Date()),
    );
    this.lastCommit = commit;
    this.catchUp.add(rewritten.index, commit);
    return this.carried(rewritten.tree);
  }

  /** git was not told the take's paths: its next run is (the index's stat data of them is old). */
  private carried(tree: string): string {
    this.changes.carry();
    this.taken++;
    return tree;
  }

  /** Each vouched path's new entry (null: gone); undefined when the `git status` way must decide. */
  private async plan(root: string, vouched: Vouched): Promise<Map<string, PathChange> | undefined> {
    const changes = new Map<string, PathChange>();
    const files: Hashed[] = [];
    const unheld: Hashed[] = [];
    for (const path of vouched.paths) {
      if (path.split("/").some((part) => LISTING_NAMES.has(part))) return undefined;
      const abs = join(this.place.workTree, path);
      const st = lstatSync(abs, { throwIfNoEntry: false });
      if (!st) {
        changes.set(path, null);
        continue;
      }
      const held = await entryAt(this.objects, root, path);
      if (st.isDirectory()) {
        // Only an existing folder's own attributes changed (chmod, touch): nothing git keeps.
        if (vouched.appeared || held?.mode !== TREE_MODE) return undefined;
        continue;
      }
      if (!st.isFile() && !st.isSymbolicLink()) return undefined;
      if (this.bigFiles.holds(path) || isTooBig(st)) return undefined;
      (held ? files : unheld).push({ path, st });
    }
    // Not in the last tree: new, or ignored (git status would not list it either).
    const ignored = await this.ignored(unheld.map((f) => f.path));
    files.push(...unheld.filter((f) => !ignored.has(f.path)));
    const viaGit = this.attributesApply(files) ? files.filter((f) => f.st.isFile()) : [];
    const ids = await this.hashWithGit(viaGit.map((f) => f.path));
    for (const f of files) {
      const abs = join(this.place.workTree, f.path);
      const id =
        ids.get(f.path) ??
        this.objects.write(
          "blob",
          f.st.isSymbolicLink() ? readlinkSync(abs, { encoding: "buffer" }) : readFileSync(abs),
        );
      changes.set(f.path, { mode: fileMode(f.st), id });
    }
    return changes;
  }

  /** Whether an attributes file may apply to any of `files` (git then converts on the way in). */
  private attributesApply(files: Hashed[]): boolean {
    const home = process.env.HOME ?? homedir();
    const global = [
      join(this.place.gitDir, "info", "attributes"),
      join(home, ".config", "git", "attributes"),
    ];
    if (global.some((file) => existsSync(file))) return true;
    const folders = new Set<string>();
    for (const f of files)
      for (let dir = dirname(f.path); !folders.has(dir); dir = dirname(dir)) {
        folders.add(dir);
        if (dir === "." || dir === "/") break;
      }
    return [...folders].some((dir) => existsSync(join(this.place.workTree, dir, ".gitattributes")));
  }

  /** The index is not read (no hook): these run beside the catch-up's index writes. */
  private git(args: string[], input: string | undefined, okExits: number[] = []) {
    return runGit({ ...this.place, fsmonitorHook: undefined }, args, input, true, okExits);
  }

  private async ignored(paths: string[]): Promise<Set<string>> {
    if (paths.length === 0) return new Set();
    return nulPaths((await this.git(CHECK_IGNORE.args, nul(paths), CHECK_IGNORE.okExits)).stdout);
  }

  private async hashWithGit(paths: string[]): Promise<Map<string, string>> {
    if (paths.length === 0) return new Map();
    const { stdout } = await this.git(["hash-object", "-w", "--stdin-paths"], `${paths.join("\n")}\n`);
    const ids = stdout.trim().split("\n");
    if (ids.length !== paths.length || paths.some((p) => p.includes("\n"))) throw new Error("hash-object");
    return new Map(paths.map((path, i) => [path, ids[i]]));
  }

  /** Resolves once the index and the ref hold the newest snapshot (the catch-up is idle). */
  indexed(): Promise<void> {
    return this.catchUp.idle();
  }

  /**
   * Before the `git status` way: waits for the catch-up, prepares the hook's answer, and says
   * (true, once) when a catch-up failed, so the index is not the last tree and must be written.
   */
  async beforeGit(): Promise<boolean> {
    await this.catchUp.idle();
    // The git way moves the ref itself (shadow-repo.ts's keepAlive).
    this.lastCommit = undefined;
    this.changes.answer();
    const failed = this.catchUp.failed;
    this.catchUp.failed = false;
    return failed;
  }

  async close(): Promise<void> {
    await this.catchUp.idle();
    this.objects.close();
  }
}

/**
 * Brings the session index and ref up to the newest watched snapshot, in the background: one
 * `update-index --index-info` for every path set or removed since the last catch-up (entries
 * without stat data, so the next `git status` compares those files by content), then the ref.
 */
class IndexCatchUp {
  private pending = new Map<string, PathChange>();
  private commit: string | undefined;
  private running: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  failed = false;

  constructor(
    private readonly place: GitPlace,
    private readonly busy: (busy: boolean) => void,
  ) {}

  /**
   * Queues a snapshot's index entries and commit. The catch-up runs once the rounds pause
   * (QUIET_MS after the last one) or when something needs the index (`idle`): a turn's quick
   * bash rounds would otherwise each start a whole-index rewrite beside the next round.
   */
  add(index: ReadonlyMap<string, PathChange>, commit: string): void {
    for (const [path, change] of index) this.pending.set(path, change);
    this.commit = commit;
    if (this.running) return;
    clearTimeout(this.timer);
    if (this.pending.size > MAX_PENDING) this.start();
    else this.timer = setTimeout(() => this.start(), QUIET_MS).unref();
  }

  /** Resolves once the index and ref hold every snapshot queued (starting the catch-up now). */
  async idle(): Promise<void> {
    while (this.commit || this.running) {
      if (!this.running) this.start();
      await this.running;
    }
  }

  private start(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.running || !this.commit) return;
    this.busy(true);
    this.running = this.catchUp().finally(() => {
      this.running = undefined;
      this.busy(false);
      // Rounds that came meanwhile wait for the next pause.
      if (this.commit) this.timer = setTimeout(() => this.start(), QUIET_MS).unref();
    });
  }

  private async catchUp(): Promise<void> {
    const entries = this.pending;
    const commit = this.commit as string;
    this.pending = new Map();
    this.commit = undefined;
    const info = [...entries]
      .map(([path, c]) => (c ? `${c.mode} ${c.id}\t${path}\0` : `0 ${"0".repeat(40)}\t${path}\0`))
      .join("");
    try {
      // The index carries the fsmonitor hook as every command on it does (git-process.ts).
      if (info) await runGit(this.place, ["update-index", "-z", "--index-info"], info, true, []);
      const noHook = { ...this.place, fsmonitorHook: undefined };
      await runGit(noHook, ["update-ref", this.place.ref, commit], undefined, true, []);
    } catch {
      // The index is behind the snapshot: the next `git status` way rebuilds the tree from it.
      this.failed = true;
    }
  }
}
