// Where a language server's program is (R-LSP-1, §10): an absolute path, found on PATH or in the
// project's own `node_modules/.bin`, and never one inside an untrusted workspace. This is the one
// place tern's language servers resolve programs; a shared resolver for every program tern runs
// can replace `resolveServerProgram` without touching its callers.
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, relative, resolve, sep } from "node:path";

export interface ProgramLookup {
  /** The workspace: relative PATH entries resolve against it, and what is inside it needs trust. */
  cwd: string;
  /** The folder the server serves (its root); its `node_modules/.bin` is looked in first. */
  root: string;
  env: NodeJS.ProcessEnv;
  trusted: boolean;
}

export type ResolvedProgram = { path: string } | { missing: true } | { refused: string };

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Whether `path` (really) lies in `folder`. */
export function isInside(path: string, folder: string): boolean {
  const rel = relative(real(folder), real(path));
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

function candidates(program: string, lookup: ProgramLookup): string[] {
  if (program.includes("/")) return [resolve(lookup.cwd, program)];
  const dirs: string[] = [];
  for (let dir = lookup.root; isInside(dir, lookup.cwd); dir = resolve(dir, "..")) {
    dirs.push(join(dir, "node_modules", ".bin"));
    if (real(dir) === real(lookup.cwd)) break;
  }
  for (const entry of (lookup.env.PATH ?? "").split(delimiter))
    if (entry) dirs.push(resolve(lookup.cwd, entry));
  return dirs.map((dir) => join(dir, program));
}

/**
 * The program a server command names, as an absolute path. In a workspace that is not in
 * `trustedWorkspaces`, a program inside it (a cloned repository's own `node_modules/.bin`, a
 * `./` path, a relative PATH entry) is passed over; when nothing else is found, the refusal says why.
 */
export function resolveServerProgram(program: string, lookup: ProgramLookup): ResolvedProgram {
  let refused: string | undefined;
  for (const candidate of candidates(program, lookup)) {
    if (!executable(candidate)) continue;
    // Judged where it really is; run by the name found (a rustup proxy dispatches on its name).
    if (!lookup.trusted && isInside(real(candidate), lookup.cwd)) {
      refused ??= `not run: ${relative(lookup.cwd, candidate)} is inside this workspace, which is not in trustedWorkspaces`;
      continue;
    }
    return { path: candidate };
  }
  return refused ? { refused } : { missing: true };
}
