// A session's change watch and git's fsmonitor hook together: started at the first snapshot of
// a big workspace, each later snapshot hands git the paths changed since the last one. While the
// watch cannot vouch (still starting, a folder being walked, too many events) git is told
// "everything" and compares every file as it would without a hook; once the watch is off (no
// inotify, out of watches, a nested repository) the hook goes too and git runs as before.
import { ChangeWatch } from "./change-watch.js";
import { FsmonitorHook } from "./fsmonitor-hook.js";

interface Place {
  sessionGitDir: string;
}

export class WatchedChanges {
  private watch: ChangeWatch | undefined;
  private hook: FsmonitorHook | undefined;
  private off = false;

  constructor(private readonly workTree: string) {}

  /** Prepares the hook's answer for the snapshot about to run; the hook's path, or undefined (none). */
  async prepare(place: Place): Promise<string | undefined> {
    if (this.off) return undefined;
    if (!this.watch) {
      this.hook = new FsmonitorHook(place.sessionGitDir);
      if (!this.hook.install()) return this.stop();
      this.watch = new ChangeWatch(this.workTree, place.sessionGitDir);
      // Beside this snapshot, which compares everything (the first answer is "everything").
      void this.watch.start().then((on) => {
        if (!on) this.stop();
      });
      return this.hook.path;
    }
    const paths = await this.watch.take();
    if (this.off) return undefined;
    this.hook?.prepare(paths);
    return this.hook?.path;
  }

  stop(): undefined {
    this.off = true;
    this.watch?.stop();
    return undefined;
  }
}
