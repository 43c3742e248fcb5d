// The workspace's files for front ends (`@file` completion): the same listing the glob and grep
// tools use, so what .gitignore hides from the model is hidden from the menu too.
import { relative, sep } from "node:path";
import { listFiles } from "../tools/builtin/file-walk.js";

/** Paths relative to `cwd`, `/`-separated, sorted; at most `limit` of them. */
export async function workspaceFiles(cwd: string, limit = 20_000): Promise<string[]> {
  const files = await listFiles(cwd, "**/*", cwd);
  return files.slice(0, limit).map((abs) => relative(cwd, abs).split(sep).join("/"));
}
