// The workspace's own object store, borrowed read-only by a shadow whose first index came from
// the workspace's git index (workspace-index-seed.ts): the blobs that index names stay there.
// Not through `objects/info/alternates`: git "freshens" an object it is asked to write that an
// alternate already holds (utime on the loose file or the whole pack), and snapshots write
// blobs and trees the user often has (a file or folder back as committed). So the store is named
// in `GIT_ALTERNATE_OBJECT_DIRECTORIES` only for commands that write no object; those that do
// (update-index, hash-object, write-tree, fast-import, add) run without it and write into the
// shadow, and write-tree is told the blobs it cannot see there exist (`--missing-ok`: they are
// the user index's entries, or blobs the shadow wrote). The user's cached trees are copied into
// the shadow when it is seeded (write-tree trusts a cached tree only where its object is found).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The shadow's file naming the borrowed object store (one absolute path). */
const BORROWED_FILE = "tern-borrowed-objects";

/** Commands that write objects: with the store in sight they would freshen the user's files. */
const WRITERS = new Set(["update-index", "hash-object", "write-tree", "fast-import", "add", "mktree"]);

/** Known borrowed stores by shadow folder (once borrowed, a shadow keeps borrowing). */
const known = new Map<string, string>();

/** The object store `gitDir` borrows, if any. */
export function borrowedObjects(gitDir: string): string | undefined {
  const cached = known.get(gitDir);
  if (cached !== undefined) return cached;
  const file = join(gitDir, BORROWED_FILE);
  if (!existsSync(file)) return undefined;
  const path = readFileSync(file, "utf8").trim();
  if (path) known.set(gitDir, path);
  return path || undefined;
}

/** Records that `gitDir` borrows `objects` (false: a path the variable cannot carry). */
export function borrowObjects(gitDir: string, objects: string): boolean {
  // The variable is colon-separated and git unquotes a leading double quote.
  if (objects.includes(":") || objects.startsWith('"')) return false;
  writeFileSync(join(gitDir, BORROWED_FILE), `${objects}\n`);
  known.set(gitDir, objects);
  return true;
}

/** The subcommand of an argument list that may start with `-c name=value` pairs. */
const subcommand = (args: readonly string[]): string | undefined => {
  let i = 0;
  while (args[i] === "-c") i += 2;
  return args[i];
};

/**
 * A command's arguments and extra environment for a shadow that borrows: the store unless it
 * writes objects; `--missing-ok` for write-tree.
 */
export function withBorrowed(
  gitDir: string,
  args: string[],
): { args: string[]; env: Record<string, string> } {
  const store = borrowedObjects(gitDir);
  const command = subcommand(args);
  if (!store || !command) return { args, env: {} };
  if (!WRITERS.has(command)) return { args, env: { GIT_ALTERNATE_OBJECT_DIRECTORIES: store } };
  if (command !== "write-tree") return { args, env: {} };
  const at = args.indexOf(command) + 1;
  return { args: [...args.slice(0, at), "--missing-ok", ...args.slice(at)], env: {} };
}
