// Folders of the workspace that are git repositories of their own (a vendored clone, a
// submodule, a fresh `git init`). Git lists such a folder as one `dir/` entry and `git add`
// makes it a gitlink: the files inside would never be in a snapshot (undo would silently leave
// them), and a nested repository without a commit makes `git add` fail outright. Putting one of
// its files into the shadow index by hand makes git walk into the folder like any other, so
// later listings name its files one by one (its own `.git` stays skipped, as everywhere).
import { type Dirent, lstatSync, readdirSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";
import { NEVER_ENTERED } from "./empty-folders.js";
import { MAX_SNAPSHOT_FILE_BYTES } from "./what-to-keep.js";

/** What these helpers need of the shadow repository (kept narrow: it imports them). */
interface ShadowRepo {
  readonly workTree: string;
  git(args: string[], input?: string): Promise<{ stdout: string }>;
}

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
      if (NEVER_ENTERED.has(name) || name.includes("\n") || ++seen > MAX_ENTRIES_SEEN) continue;
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

/**
 * Puts one file of each nested repository into the shadow index, so the next listing walks into
 * it. False when none had a file to seed with.
 */
export async function seedNestedRepos(repo: ShadowRepo, folders: string[]): Promise<boolean> {
  const seeds = folders
    .map((folder) => firstFileIn(repo.workTree, folder, MAX_SNAPSHOT_FILE_BYTES))
    .filter((p): p is string => p !== undefined);
  if (seeds.length === 0) return false;
  const hashes = (await repo.git(["hash-object", "-w", "--stdin-paths"], `${seeds.join("\n")}\n`)).stdout
    .trim()
    .split("\n");
  // The mode is checked again by the listing that follows: an executable seed is restaged.
  const info = seeds.map((path, i) => `100644 ${hashes[i]}\t${path}\0`).join("");
  await repo.git(["update-index", "-z", "--add", "--index-info"], info);
  return true;
}

/**
 * Files under `folder` outside any `.git` and `node_modules` (which nearly every project ignores;
 * other ignore files are not read, so otherwise an upper bound), counting stops at `cap`. Read asynchronously, a folder at a time: a nested clone
 * of 100,000 files must not hold the event loop (and with it the turn's stream) while it is counted.
 */
export async function countFilesIn(workTree: string, folder: string, cap: number): Promise<number> {
  let level = [folder.replace(/\/+$/, "")];
  let count = 0;
  while (level.length > 0 && count < cap) {
    const next: string[] = [];
    for (let i = 0; i < level.length && count < cap; i += PARALLEL_READS) {
      const batch = level.slice(i, i + PARALLEL_READS);
      const listed = await Promise.all(batch.map((dir) => entriesOf(join(workTree, dir))));
      listed.forEach((entries, k) => {
        for (const entry of entries) {
          if (NEVER_ENTERED.has(entry.name)) continue;
          if (entry.isDirectory()) next.push(`${batch[k]}/${entry.name}`);
          else count++;
        }
      });
    }
    level = next;
  }
  return count;
}

/** Folders read at once by the count (both cores busy, the event loop free between reads). */
const PARALLEL_READS = 16;

async function entriesOf(abs: string): Promise<Dirent[]> {
  try {
    return await readdir(abs, { withFileTypes: true });
  } catch {
    return []; // unreadable or gone meanwhile: nothing to count
  }
}
