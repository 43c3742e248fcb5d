// The workspace's files for front ends (`@file` completion): the same listing the glob and grep
// tools use, so what .gitignore hides from the model is hidden from the menu too. Bounded in
// time and entries: a huge tree (a home folder) gives no menu rather than a stalled one.
import { relative, sep } from "node:path";
import { listFiles } from "../tools/builtin/file-walk.js";

/** Paths relative to `cwd`, `/`-separated, sorted; empty when the tree is too big to list. */
export async function workspaceFiles(cwd: string, limit = 20_000): Promise<string[]> {
  try {
    const files = await listFiles(cwd, "**/*", cwd, { maxEntries: limit, timeoutMs: 5_000 });
    return files.map((abs) => relative(cwd, abs).split(sep).join("/"));
  } catch {
    return [];
  }
}
