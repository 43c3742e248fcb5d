// Where a path named by a prompt or a workspace's file really leads (§10, R-WF-1, R-WF-4), shared
// by instruction `@imports` and `@file` attachments so both follow one rule: the kernel's real
// path (through symlinked files and folders, `..`) must lie inside one of the allowed roots; TERN_HOME
// (its config.json holds keys) and the inside of any `.git` folder are never reached, also when
// they lie inside a root; anything else is outside, and the caller refuses it or asks naming the
// real target.
import { sep } from "node:path";
import { canonicalPath, isInsidePath, NOT_TRUSTED } from "./workspace-trust.js";

export type PathReach =
  | { verdict: "inside"; real: string }
  | { verdict: "outside"; real: string }
  | { verdict: "never"; real: string; why: string };

export interface ReachRoots {
  /** Folders a reference may lead into (the workspace; for imports also the repository root). */
  roots: readonly string[];
  /** TERN_HOME: never reached, unless `homeAllowed` (the person's own AGENTS.md importing from it). */
  home: string;
  homeAllowed?: boolean;
}

/** The roots' real paths, found once per reader. */
export function realRoots(roots: readonly string[]): string[] {
  return roots.map(canonicalPath);
}

/** Whether `real` lies inside a `.git` folder (at any depth): a repository's internals. */
function insideGitFolder(real: string): boolean {
  return real
    .split(sep)
    .slice(0, -1)
    .some((part) => part.toLowerCase() === ".git");
}

const isGitFolder = (real: string) => real.split(sep).at(-1)?.toLowerCase() === ".git";

/** Where `target` (an absolute path) really leads, judged against `where`. */
export function pathReach(target: string, where: ReachRoots): PathReach {
  const real = canonicalPath(target);
  const home = canonicalPath(where.home);
  if (isInsidePath(home, real)) {
    if (!where.homeAllowed)
      return { verdict: "never", real, why: "it is in TERN_HOME, tern's own settings and keys" };
    return { verdict: "inside", real };
  }
  if (insideGitFolder(real) || isGitFolder(real))
    return { verdict: "never", real, why: "it is inside a .git folder, a repository's internals" };
  const roots = realRoots(where.roots);
  return roots.some((root) => isInsidePath(root, real))
    ? { verdict: "inside", real }
    : { verdict: "outside", real };
}

/**
 * A workspace's own file (instruction file, command, skill, agent) whose real path lies outside it
 * (`CLAUDE.md -> ~/.ssh/id_rsa`): an untrusted workspace's is not read, since its text would be
 * sent (§10). The one-line notice, or undefined when the file may be read.
 */
export function foreignWorkspaceFile(
  file: string,
  where: { roots: readonly string[]; home: string; trusted: boolean },
): string | undefined {
  if (where.trusted) return undefined;
  const reach = pathReach(file, { roots: where.roots, home: where.home });
  if (reach.verdict === "inside") return undefined;
  return `${file}: leads to ${reach.real}, outside the workspace; not read: ${NOT_TRUSTED}`;
}
