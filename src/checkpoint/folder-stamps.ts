// Whether the empty-folder walk (empty-folders.ts) can be skipped: it is a second walk of the
// whole workspace (git status hides empty folders), and a few edited files cannot make or fill a
// folder. A folder appears, goes or gets emptied only by changing the entries of its parent, which
// changes the parent's mtime; so the mtimes of the snapshot's folders are kept (read before the
// listing, so a change during a snapshot is seen next time), and while none moved and the listing
// shows only edits, the walk is skipped. Left out of that promise: a folder git walks but the
// snapshot does not hold (one with nothing but ignored files); a new empty folder inside it is
// seen at the next snapshot that walks.
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { stampTrusted } from "../vocab/racy-stamps.js";

interface ShadowRepo {
  readonly workTree: string;
  git(args: string[], input?: string): Promise<{ stdout: string }>;
}

/**
 * A folder read within its file system's timestamp tick of its last change may change again
 * without its mtime moving: not trusted (vocab/racy-stamps.ts: 100 ms where times have a
 * sub-second part, 2 s where they are whole seconds). A bash command or the bench's own files
 * touch the workspace root all the time: with a flat 2 s every snapshot of a busy session walked.
 */
const UNTRUSTED = -1;

export class FolderStamps {
  /** Snapshot folder ("" is the root, others end in "/") → mtime when last read. */
  private stamps: Map<string, number> | undefined;
  private readNow: Map<string, number> | undefined;

  private stamp(folder: string, now: number): number {
    try {
      const mtime = lstatSync(join(this.workTree, folder)).mtimeMs;
      return stampTrusted(mtime, now) ? mtime : UNTRUSTED;
    } catch {
      return UNTRUSTED;
    }
  }

  constructor(private readonly workTree: string) {}

  /** Reads the kept folders' mtimes now; true when any moved (or none are kept yet). */
  moved(): boolean {
    if (!this.stamps) return true;
    const now = Date.now();
    let moved = false;
    this.readNow = new Map();
    for (const [folder, was] of this.stamps) {
      const is = this.stamp(folder, now);
      this.readNow.set(folder, is);
      if (is === UNTRUSTED || is !== was) moved = true;
    }
    return moved;
  }

  /** After a snapshot that walked: keeps the mtimes of `tree`'s folders (those read by moved() as read then). */
  async keep(repo: ShadowRepo, tree: string): Promise<void> {
    const { stdout } = await repo.git(["ls-tree", "-r", "-d", "-z", "--name-only", tree]);
    const now = Date.now();
    const next = new Map<string, number>();
    for (const folder of [
      "",
      ...stdout
        .split("\0")
        .filter((p) => p.length > 0)
        .map((p) => `${p}/`),
    ])
      next.set(folder, this.readNow?.get(folder) ?? this.stamp(folder, now));
    this.stamps = next;
    this.readNow = undefined;
  }
}
