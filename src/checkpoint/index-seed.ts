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
 * The other session whose snapshot is newest (its ref was written last), among those with an
 * index. The index's own time says little: every `git status` rewrites it.
 */
function newestOtherIndex(gitDir: string, sessionId: string): string | undefined {
  let newest: { name: string; mtimeMs: number } | undefined;
  for (const name of readdirSync(join(gitDir, "tern-index"))) {
    // Session ids hold no dot; the files beside the indexes do (`.git`, `.big`, `.lock`).
    if (name === sessionId || name.includes(".")) continue;
    try {
      const st = statSync(join(gitDir, "refs", "tern", name));
      if (st.isFile() && (!newest || st.mtimeMs > newest.mtimeMs)) newest = { name, mtimeMs: st.mtimeMs };
    } catch {
      // No snapshot yet (or its session was cleaned up meanwhile): nothing to start from.
    }
  }
  return newest?.name;
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
  const other = newestOtherIndex(files.gitDir, sessionId);
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
