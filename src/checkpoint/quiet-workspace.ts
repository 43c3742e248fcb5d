// Whether a small workspace is provably as the last snapshot left it, so the snapshot after a
// bash batch that changed nothing (`ls`, `cat`, a test run) needs no `git status` at all: on a
// quick model a bash round waited for that process (~3 ms here) before its next batch.
//
// Why it is exact. A reading holds every entry's lstat (device, inode, mode, size, mtime, ctime),
// folders included, taken BEFORE a snapshot's `git status`. It becomes the baseline only when
// that snapshot was a fixed point (git listed nothing to stage, no folder mark moved, no walk:
// the same workspace and index give the same answer again) and when every time it read was
// older than its file system's timestamp tick (vocab/racy-stamps.ts), so any later change moves
// a time. Later, if every entry's lstat is still the same, nothing was written, made, removed or
// renamed since the reading (an entry added to or taken from a folder moves the folder's times;
// ctime cannot be set back), so the workspace is what that git status saw, and the answer is the
// snapshot's tree. What git reads besides the workspace — the session index, the shadow's
// config and exclude file, the big-file list, the user's `~/.config/git/ignore` and attributes —
// is compared by content, kept once the snapshot is over (the index is rewritten by undo, by
// staging and by status itself; small files here, and content needs no racy rule). The work
// tree's own `.git` is never read by git (it skips that name), so it is not read here; a nested
// `.git` anywhere makes the reading unusable (git decides from inside it whether a folder is a
// repository). A workspace over MAX_ENTRIES entries is not read at all (a stat is ~4 µs of the
// event loop; git's stat pass runs in its own process).
import { lstatSync, readdirSync, readFileSync, type Stats, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { stampTrusted } from "../vocab/racy-stamps.js";

/** Entries (files and folders) of a workspace read in-process; above this, git alone decides. */
export const MAX_ENTRIES = 300;

/**
 * What `git status` reads for a session besides the work tree: its index, the big-file list,
 * the shadow's config and info files, and git's default excludes and attributes files (HOME is
 * passed to git, git-process.ts; the user's config file is not read).
 */
export function statusInputs(gitDir: string, indexFile: string): string[] {
  const userGit = join(process.env.HOME ?? homedir(), ".config", "git");
  return [
    indexFile,
    `${indexFile}.big`,
    join(gitDir, "config"),
    join(gitDir, "info", "exclude"),
    join(gitDir, "info", "attributes"),
    join(userGit, "ignore"),
    join(userGit, "attributes"),
  ];
}

interface Reading {
  /** Absolute path → lstat signature. */
  entries: Map<string, string>;
  /** Every time read was older than its timestamp tick when read. */
  trusted: boolean;
}

function contentOf(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

const signature = (s: Stats): string => `${s.dev}:${s.ino}:${s.mode}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;

export class QuietWorkspace {
  private baseline: Map<string, string> | undefined;
  /** The git inputs' contents when the baseline was adopted (undefined: absent). */
  private inputs: (Buffer | undefined)[] = [];
  private candidate: Reading | undefined;
  /** The workspace grew past MAX_ENTRIES once: not read again by this process. */
  private tooBig = false;

  /** `gitInputs`: files other than the workspace whose change could change git status's answer. */
  constructor(
    private readonly workTree: string,
    private readonly gitInputs: readonly string[],
  ) {}

  /** The workspace grew past MAX_ENTRIES: git alone decides (and a change watch may help it). */
  get big(): boolean {
    return this.tooBig;
  }

  /**
   * True when the workspace and git's inputs are as at the baseline (the snapshot may return its
   * tree). Otherwise reads the workspace afresh, to be adopted by `settle` after the snapshot.
   */
  unchanged(): boolean {
    if (this.baseline && this.sameInputs() && this.sameAsBaseline()) return true;
    this.baseline = undefined;
    this.candidate = this.tooBig ? undefined : this.read();
    return false;
  }

  /**
   * After the snapshot: when it was a fixed point (git listed nothing to stage, no mark moved, no
   * walk), the reading taken before it becomes the baseline; otherwise none until one is.
   */
  settle(fixedPoint: boolean): void {
    if (fixedPoint && this.candidate?.trusted) {
      this.baseline = this.candidate.entries;
      this.inputs = this.gitInputs.map(contentOf);
    }
    this.candidate = undefined;
  }

  private sameAsBaseline(): boolean {
    for (const [path, was] of this.baseline!) {
      // The root as read() read it: followed (a symlinked workspace).
      const stat = path === this.workTree ? statSync : lstatSync;
      const now = stat(path, { throwIfNoEntry: false });
      if (!now || signature(now) !== was) return false;
    }
    return true;
  }

  private sameInputs(): boolean {
    return this.gitInputs.every((file, i) => {
      const now = contentOf(file);
      const was = this.inputs[i];
      return now === undefined || was === undefined ? now === was : now.equals(was);
    });
  }

  /** Every entry's lstat, folders breadth first; undefined when unusable (too many, a nested `.git`). */
  private read(): Reading | undefined {
    const at = Date.now();
    const entries = new Map<string, string>();
    let trusted = true;
    const note = (path: string, s: Stats) => {
      entries.set(path, signature(s));
      trusted &&= stampTrusted(s.mtimeMs, at) && stampTrusted(s.ctimeMs, at);
    };
    try {
      // The root as git sees it (a symlinked workspace is followed).
      note(this.workTree, statSync(this.workTree));
      const queue = [this.workTree];
      for (let i = 0; i < queue.length; i++) {
        const folder = queue[i];
        for (const entry of readdirSync(folder, { withFileTypes: true })) {
          if (entry.name === ".git") {
            if (folder === this.workTree) continue;
            return undefined;
          }
          if (entries.size >= MAX_ENTRIES) {
            this.tooBig = true;
            return undefined;
          }
          const path = join(folder, entry.name);
          const s = lstatSync(path);
          note(path, s);
          if (s.isDirectory()) queue.push(path);
        }
      }
    } catch {
      // An entry gone or unreadable meanwhile: git decides this time.
      return undefined;
    }
    return { entries, trusted };
  }
}
