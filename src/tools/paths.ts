// Path helpers shared by the tools, the approval policy and the executor's per-file ordering.
import { existsSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Resolves a tool path against the workspace; a leading `~/` means the user's home. */
export function resolvePath(cwd: string, p: string): string {
  if (p === "~" || p.startsWith("~/")) return join(homedir(), p.slice(1));
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

/**
 * Like realpath, but for paths that may not exist yet: the nearest existing ancestor is
 * resolved, so a symlink inside the workspace that points outside is seen for what it is.
 */
export function realPathLoose(abs: string): string {
  let head = abs;
  const rest: string[] = [];
  while (!existsSync(head)) {
    const parent = dirname(head);
    if (parent === head) return abs;
    rest.unshift(head.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)));
    head = parent;
  }
  try {
    return rest.length ? join(realpathSync(head), ...rest) : realpathSync(head);
  } catch {
    return abs;
  }
}

export function isInside(root: string, abs: string): boolean {
  const rel = relative(root, abs);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** Workspace-relative with forward slashes when inside the workspace, else absolute. */
export function displayPath(cwd: string, abs: string): string {
  if (!isInside(cwd, abs)) return abs;
  const rel = relative(cwd, abs);
  return rel === "" ? "." : rel.split(sep).join("/");
}
