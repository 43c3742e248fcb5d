// Path helpers shared by the tools, the approval policy and the executor's per-file ordering.
import { lstatSync, readlinkSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Resolves a tool path against the workspace; a leading `~/` means the user's home. */
export function resolvePath(cwd: string, p: string): string {
  if (p === "~" || p.startsWith("~/")) return join(homedir(), p.slice(1));
  return isAbsolute(p) ? resolve(p) : resolve(cwd, p);
}

/**
 * Like realpath, but for paths that may not exist yet (§10): every symlink on the way is
 * followed, a dangling one to its target too, so `link -> ../x` and a symlinked parent folder
 * are seen for where a write would really land. `..` is taken after the symlink before it, as
 * the kernel does (`link/../x` with `link -> /etc` is `/x`). The part that does not exist is
 * kept as is.
 */
export function realPathLoose(path: string): string {
  const segments = (p: string) => p.split(sep).filter((s) => s !== "" && s !== ".");
  let parts = segments(isAbsolute(path) ? path : join(process.cwd(), path));
  let out: string = sep;
  let hops = 0;
  while (parts.length > 0) {
    const [head, ...rest] = parts;
    if (head === "..") {
      out = dirname(out);
      parts = rest;
      continue;
    }
    const next = join(out, head);
    let link: string | null = null;
    try {
      if (lstatSync(next).isSymbolicLink()) link = readlinkSync(next);
    } catch {
      // Missing (or unreadable): nothing further can be a symlink.
      return join(next, ...rest);
    }
    if (link === null) {
      out = next;
      parts = rest;
      continue;
    }
    // A loop of links never resolves; stop where it is, as the OS would refuse to write there.
    if (++hops > 40) return join(next, ...rest);
    if (isAbsolute(link)) out = sep;
    parts = [...segments(link), ...rest];
  }
  return out;
}

/** Whether a real path is inside the workspace's `.git/` or `.tern/` (§10: writing there is code execution). */
export function isProtectedPath(realRoot: string, realAbs: string): boolean {
  if (!isInside(realRoot, realAbs)) return false;
  const segments = relative(realRoot, realAbs).split(sep);
  return segments.some((s) => PROTECTED_DIRS.has(s.toLowerCase()));
}

const PROTECTED_DIRS = new Set([".git", ".tern"]);

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

/** Where paths (as a tool call gave them, relative to `cwd`) really land, symlinks followed. */
export function realPathsIn(cwd: string, paths: readonly string[]): string[] {
  return paths.map((p) => realPathLoose(resolvePath(cwd, p)));
}
