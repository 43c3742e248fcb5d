// A session's change watch and git's fsmonitor hook together: started at the first snapshot of
// a big workspace, each later snapshot hands git the paths changed since the last one. While the
// watch cannot vouch (still starting, a folder being walked, too many events) git is told
// "everything" and compares every file as it would without a hook; once the watch is off (no
// inotify, out of watches, a nested repository) the hook goes too and git runs as before.
// Two shortcuts when it vouches: nothing changed since the last snapshot, and nothing git reads
// besides the workspace changed either (the session index, rewritten by undo; the shadow's config
// and excludes; the user's git ignore file: by lstat, as a snapshot left them), so the last tree
// stands and no git runs; and only writes, no path made, removed or moved and no `.gitignore`
// among them, so no untracked file can have appeared and git's untracked walk is skipped.
import { lstatSync } from "node:fs";
import { ChangeWatch } from "./change-watch.js";
import { FsmonitorHook } from "./fsmonitor-hook.js";

interface Place {
  sessionGitDir: string;
  fsmonitorHook?: string;
}

export interface WatchedAnswer {
  /** Nothing changed since the last snapshot: its tree stands. */
  nothing: boolean;
  /** No untracked file can have appeared: git's untracked walk may be skipped. */
  noNewPaths: boolean;
}

const UNKNOWN: WatchedAnswer = { nothing: false, noNewPaths: false };

const isIgnoreFile = (path: string) => path === ".gitignore" || path.endsWith("/.gitignore");

function signature(files: readonly string[]): string {
  return files
    .map((file) => {
      const s = lstatSync(file, { throwIfNoEntry: false });
      return s ? `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}` : "-";
    })
    .join(" ");
}

export class WatchedChanges {
  private watch: ChangeWatch | undefined;
  private hook: FsmonitorHook | undefined;
  private off = false;
  /** What git reads besides the workspace, as the last snapshot left it. */
  private inputs: string | undefined;

  /** `gitInputs`: files whose change could change git status's answer (quiet-workspace.ts's list). */
  constructor(
    private readonly workTree: string,
    private readonly gitInputs: readonly string[],
  ) {}

  /** Prepares the hook's answer for the snapshot about to run, and sets or clears `place`'s hook. */
  async prepare(place: Place): Promise<WatchedAnswer> {
    if (this.off) return this.clear(place);
    if (!this.watch) {
      this.hook = new FsmonitorHook(place.sessionGitDir);
      if (!this.hook.install()) return this.clear(place, true);
      this.watch = new ChangeWatch(this.workTree, place.sessionGitDir);
      // Beside this snapshot, which compares everything (the first answer is "everything").
      void this.watch.start().then((on) => {
        if (!on) this.stop();
      });
      place.fsmonitorHook = this.hook.path;
      return UNKNOWN;
    }
    const known = await this.watch.take();
    // The watch went off meanwhile (an error, a nested repository): git runs without the hook.
    if (this.off || this.watch.off) return this.clear(place, true);
    place.fsmonitorHook = this.hook?.path;
    const sameInputs = this.inputs !== undefined && this.inputs === signature(this.gitInputs);
    // No git runs: the index keeps its token, so the hook's answer must stay the one for it.
    if (known?.paths.length === 0 && sameInputs) return { nothing: true, noNewPaths: true };
    this.hook?.prepare(known?.paths);
    if (!known) return UNKNOWN;
    return { nothing: false, noNewPaths: !known.appeared && sameInputs && !known.paths.some(isIgnoreFile) };
  }

  /** A snapshot is over: what git reads besides the workspace is as it left it. */
  settled(): void {
    this.inputs = this.watch && !this.off ? signature(this.gitInputs) : undefined;
  }

  stop(): undefined {
    this.off = true;
    this.inputs = undefined;
    this.watch?.stop();
    return undefined;
  }

  private clear(place: Place, stop = false): WatchedAnswer {
    if (stop) this.stop();
    place.fsmonitorHook = undefined;
    return UNKNOWN;
  }
}
