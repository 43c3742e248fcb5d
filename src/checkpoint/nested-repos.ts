// Folders of the workspace that are git repositories of their own (a vendored clone, a
// submodule, a fresh `git init`). Git lists such a folder as one `dir/` entry and `git add`
// makes it a gitlink: the files inside would never be in a snapshot (undo would silently leave
// them), and a nested repository without a commit makes `git add` fail outright. Putting one of
// its files into the shadow index by hand makes git walk into the folder like any other, so
// later listings name its files one by one (its own `.git` stays skipped, as everywhere).
import { lstatSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Entries looked at per nested folder while searching for a file to seed with. */
const MAX_ENTRIES_SEEN = 10_000;

/** A `git ls-files --others` entry for a folder git did not walk into. */
export function isFolderEntry(path: string): boolean {
  return path.endsWith("/");
}

/**
 * The first regular file of at most `maxBytes` under `folder` (workspace-relative,
 * `/`-separated), outside any `.git`; names with a newline are passed over (git reads the
 * seeds one per line).
 */
export function firstFileIn(workTree: string, folder: string, maxBytes: number): string | undefined {
  const queue = [folder.replace(/\/+$/, "")];
  let seen = 0;
  while (queue.length > 0 && seen < MAX_ENTRIES_SEEN) {
    const dir = queue.shift()!;
    let names: string[];
    try {
      names = readdirSync(join(workTree, dir)).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      if (name === ".git" || name.includes("\n") || ++seen > MAX_ENTRIES_SEEN) continue;
      const rel = `${dir}/${name}`;
      try {
        const st = lstatSync(join(workTree, rel));
        if (st.isFile() && st.size <= maxBytes) return rel;
        if (st.isDirectory()) queue.push(rel);
      } catch {
        // Gone meanwhile: look further.
      }
    }
  }
  return undefined;
}
