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
import { isIgnoreFile } from "./git-process.js";

interface Place {
  sessionGitDir: string;
  fsmonitorHook?: string;
}

export interface WatchedAnswer {
  /** Nothing changed since the last snapshot: its tree stands. */
  nothing: boolean;
  /** No untracked file can have appeared: git's untracked walk may be skipped. */
  noNewPaths: boolean;
  /** The paths changed since the last snapshot, when the watch vouches and git's other inputs did not change. */
  known?: { paths: string[]; appeared: boolean };
}

const UNKNOWN: WatchedAnswer = { nothing: false, noNewPaths: false };

function signature(files: readonly string[]): string[] {
  return files.map((file) => {
    const s = lstatSync(file, { throwIfNoEntry: false });
    return s ? `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}` : "-";
  });
}

export class WatchedChanges {
  private watch: ChangeWatch | undefined;
  private hook: FsmonitorHook | undefined;
  private off = false;
  /** What git reads besides the workspace, as the last snapshot left it (the session index first). */
  private inputs: string[] | undefined;
  /** The session index is being written by tern itself (watched-snapshot.ts's catch-up): not compared. */
  private indexBusy = false;
  /** What the last take found, for the hook's answer should git run (undefined: everything). */
  private taken: { paths: string[]; appeared: boolean } | undefined;
  private answerOwed = false;
  /** Paths taken by snapshots that ran no git (watched-snapshot.ts): git is told them at its next run. */
  private carried = new Set<string>();
  private carriedAppeared = false;

  /** `gitInputs`: files whose change could change git status's answer (quiet-workspace.ts's list, the index first). */
  constructor(
    private readonly workTree: string,
    private readonly gitInputs: readonly string[],
  ) {}

  /**
   * What changed since the last snapshot, and sets or clears `place`'s hook. Should git run on the
   * index after this, `answer()` first prepares the hook's answer.
   */
  async take(place: Place): Promise<WatchedAnswer> {
    this.answerOwed = false;
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
    const sameInputs = this.sameInputs();
    // No git runs: the index keeps its token, so the hook's answer must stay the one for it.
    if (known?.paths.length === 0 && sameInputs) return { nothing: true, noNewPaths: true };
    this.taken = known;
    this.answerOwed = true;
    if (!known) return UNKNOWN;
    const all = [...known.paths, ...this.carried];
    const noNewPaths = !known.appeared && !this.carriedAppeared && sameInputs && !all.some(isIgnoreFile);
    return { nothing: false, noNewPaths, ...(sameInputs ? { known } : {}) };
  }

  /** git is about to run on the index: its hook answers what the take found, with what was carried. */
  answer(): void {
    if (!this.answerOwed) return;
    this.answerOwed = false;
    const paths = this.taken ? [...new Set([...this.carried, ...this.taken.paths])] : undefined;
    this.hook?.prepare(paths);
    this.carried = new Set();
    this.carriedAppeared = false;
  }

  /** The last take's paths were snapshotted without git: the next git run is told them too. */
  carry(): void {
    if (!this.answerOwed || !this.taken) return;
    this.answerOwed = false;
    for (const path of this.taken.paths) this.carried.add(path);
    this.carriedAppeared ||= this.taken.appeared;
  }

  /** tern writes the session index itself (busy), or has written it (its lstat is the one to keep). */
  indexWrites(busy: boolean): void {
    this.indexBusy = busy;
    if (!busy && this.inputs) this.inputs[0] = signature(this.gitInputs.slice(0, 1))[0];
  }

  private sameInputs(): boolean {
    if (!this.inputs) return false;
    const now = signature(this.gitInputs);
    return now.every((sig, i) => (i === 0 && this.indexBusy) || sig === this.inputs?.[i]);
  }

  /** A snapshot is over: what git reads besides the workspace is as it left it. */
  settled(): void {
    this.inputs = this.watch && !this.off ? signature(this.gitInputs) : undefined;
  }

  stop(): undefined {
    this.off = true;
    this.inputs = undefined;
    this.answerOwed = false;
    this.watch?.stop();
    return undefined;
  }

  private clear(place: Place, stop = false): WatchedAnswer {
    if (stop) this.stop();
    place.fsmonitorHook = undefined;
    return UNKNOWN;
  }
}
