// Programs tern itself runs — `rg`, `git`, `bwrap`, `bash`, language servers — resolved once to an
// absolute path (§10, amendment of 2026-12-07). A repository must not be able to plant
// its own `node_modules/.bin/rg` or `git` and have the read-only grep or the checkpoint run it
// unasked: so only absolute `PATH` entries count (an empty or relative entry such as
// `./node_modules/.bin` names whatever folder tern runs in), and an entry, or a program whose real
// path, lies inside the workspace (tern's working folder, or one the caller names) is skipped.
import { accessSync, constants, realpathSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join, relative, resolve } from "node:path";

export interface ProgramLookup {
  /** Folders whose programs are never run (the workspace); tern's working folder always counts. */
  workspaces?: readonly string[];
  /** The PATH to search; the process's own unless given. */
  path?: string;
}

const found = new Map<string, string | undefined>();

const real = (p: string): string => {
  try {
    return realpathSync.native(p);
  } catch {
    return resolve(p);
  }
};

const inside = (root: string, p: string): boolean => {
  const rel = relative(root, p);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
};

function executableFile(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of `name` from the absolute PATH entries outside the workspace, or undefined
 * when there is none. Looked up once per name, PATH and workspace.
 */
export function programPath(name: string, opts: ProgramLookup = {}): string | undefined {
  const path = opts.path ?? process.env.PATH ?? "";
  const workspaces = [process.cwd(), ...(opts.workspaces ?? [])].map(real);
  const key = [name, path, ...workspaces].join("\0");
  if (found.has(key)) return found.get(key);
  let hit: string | undefined;
  for (const dir of path.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (!executableFile(candidate)) continue;
    const realDir = real(dir);
    const realProgram = real(candidate);
    if (workspaces.some((w) => inside(w, realDir) || inside(w, realProgram))) continue;
    hit = candidate;
    break;
  }
  found.set(key, hit);
  return hit;
}

/**
 * The `bash` the shell tool, jobs and hooks run, resolved like every program tern runs; where no
 * absolute PATH entry outside the workspace has one, `/bin/bash` (never a PATH search at spawn).
 */
export function shellProgram(workspace?: string): string {
  return programPath("bash", { workspaces: workspace ? [workspace] : [] }) ?? "/bin/bash";
}

/** The PATH entries a lookup skipped as relative or empty (for `tern config check`'s line). */
export function relativePathEntries(path = process.env.PATH ?? ""): string[] {
  return path.split(delimiter).filter((dir) => !isAbsolute(dir));
}
