// A new session's index, started from the workspace's newest other session's. Each session has
// an index of its own (two sessions never share one), so every `tern run` in a 100,000-file
// workspace used to begin with a full snapshot (hash every file) that ran beside its first
// turn, whose writes it then could not tell from the files before (undo had to refuse). A copy
// of another session's index (its stat data, its split index's shared part, its untracked cache
// and its list of big files) makes that first snapshot as cheap as any later one: git compares
// the files with the copy and restages only what differs. The session's ref starts at the other
// session's newest commit, so `git status` compares the index with a tree close to it.
import { copyFileSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

interface SessionFiles {
  /** The shadow repository. */
  gitDir: string;
  /** The session's index file (`tern-index/<id>`); its git folder is `<index>.git`. */
  indexFile: string;
  sessionId: string;
}

/**
 * The other sessions that have an index here, the one whose snapshot is newest (its ref written
 * last) first; those with no snapshot yet last. The index's own time says little: every
 * `git status` rewrites it.
 */
export function otherSessionIndexes(
  gitDir: string,
  sessionId: string,
): { id: string; snapshotMs?: number }[] {
  const others: { id: string; snapshotMs?: number }[] = [];
  for (const name of readdirSync(join(gitDir, "tern-index"))) {
    // Session ids hold no dot; the files beside the indexes do (`.git`, `.big`, `.lock`).
    if (name === sessionId || name.includes(".")) continue;
    try {
      const st = statSync(join(gitDir, "refs", "tern", name));
      others.push(st.isFile() ? { id: name, snapshotMs: st.mtimeMs } : { id: name });
    } catch {
      // No snapshot yet (or its session was cleaned up meanwhile).
      others.push({ id: name });
    }
  }
  return others.sort((a, b) => (b.snapshotMs ?? -1) - (a.snapshotMs ?? -1));
}

/**
 * Copies the newest other session's index into this session's place, when this session has none.
 * Returns the other session's id (for its ref), or undefined when there was nothing to start from.
 * The index is copied before its shared parts: git writes a shared part before the index that
 * names it, so every part the copied index names is there.
 */
export function seedSessionIndex(files: SessionFiles): string | undefined {
  const { indexFile, sessionId } = files;
  if (existsSync(indexFile)) return undefined;
  const folder = join(files.gitDir, "tern-index");
  const [newest] = otherSessionIndexes(files.gitDir, sessionId);
  const other = newest?.snapshotMs === undefined ? undefined : newest.id;
  if (!other) return undefined;
  const from = join(folder, other);
  try {
    copyFileSync(from, indexFile);
    for (const name of readdirSync(`${from}.git`))
      if (name.startsWith("sharedindex."))
        copyFileSync(join(`${from}.git`, name), join(`${indexFile}.git`, name));
    if (existsSync(`${from}.big`)) copyFileSync(`${from}.big`, `${indexFile}.big`);
    return other;
  } catch {
    // Half a copy is worse than none: start from an empty index, as a first session does.
    rmSync(indexFile, { force: true });
    rmSync(`${indexFile}.big`, { force: true });
    return undefined;
  }
}
