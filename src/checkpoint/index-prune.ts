// Old sessions' indexes, removed. Every session keeps an index of its own beside the shadow
// repository (`tern-index/<id>`, its `.big` list and its `<id>.git` folder with the split
// index's shared part): ~7 MB in a 100,000-file workspace, so a script that runs `tern run` a
// thousand times there would leave 7 GB. An index is a cache of the session's last snapshot: its
// commits and ref stay in the shadow repository, so undo and diff of any session still work,
// and a session whose index went seeds a new one from the newest other (index-seed.ts) when it
// snapshots again. Kept: the newest few (the next session's seed, a resume of a recent one) and
// every session a live tern holds, whose git may be writing its index right now.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { otherSessionIndexes } from "./index-seed.js";

/** Indexes kept whatever their sessions' state: those with the newest snapshots. */
export const KEEP_NEWEST_INDEXES = 3;

export interface PruneOptions {
  gitDir: string;
  /** The session pruning: its own index is never touched. */
  sessionId: string;
  /** Whether a live tern holds the session (its record lock); unknown counts as live. */
  isLive(sessionId: string): boolean;
}

/** Removes the indexes of sessions neither live nor among the newest; returns the ids removed. */
export function pruneSessionIndexes(opts: PruneOptions): string[] {
  const folder = join(opts.gitDir, "tern-index");
  // Ranked as the next session's seed is chosen (index-seed.ts), so that seed is always kept.
  const others = otherSessionIndexes(opts.gitDir, opts.sessionId);
  const removed: string[] = [];
  for (const { id } of others.slice(KEEP_NEWEST_INDEXES)) {
    if (opts.isLive(id)) continue;
    const index = join(folder, id);
    // The index first: once it is gone nothing names the shared part in its git folder.
    rmSync(index, { force: true });
    rmSync(`${index}.big`, { force: true });
    rmSync(`${index}.git`, { recursive: true, force: true });
    removed.push(id);
  }
  return removed;
}
