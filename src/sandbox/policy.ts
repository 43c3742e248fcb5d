// What a sandboxed shell may touch (R-SBX-2), independent of the mechanism: the folders that are
// writable, the ones that stay read-only inside them, and whether the network is reachable.
import { type Dirent, existsSync, readdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";

export type SandboxMode = "off" | "read-only" | "workspace-write";
export const SANDBOX_MODES: readonly SandboxMode[] = ["off", "read-only", "workspace-write"];

export interface SandboxSettings {
  mode: SandboxMode;
  network: boolean;
  writableRoots: string[];
}

export interface SandboxPolicy {
  mode: Exclude<SandboxMode, "off">;
  network: boolean;
  /** Absolute, real paths the command may write (temp folder, workspace, writable roots). */
  writable: string[];
  /** Absolute, real paths inside writable ones that stay read-only (.git, .tern, TERN_HOME). */
  readOnly: string[];
  /**
   * The workspace's `.git` and `.tern` that do not exist yet (also in `readOnly`): an empty
   * folder is made there while a command runs, bound read-only, so the command cannot create
   * them (bubblewrap needs the mount point; placeholders.ts makes and removes it).
   */
  placeholders: string[];
  /** Folders the command must not even read: TERN_HOME (keys, tool-set tokens), masked by an empty one. */
  hidden: string[];
  /** The workspace: the command's working directory. */
  cwd: string;
}

/** Symlinked folders (macOS /tmp → /private/tmp) must be named by their real path for a bind or a profile. */
function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * The policy for one workspace. `home` (TERN_HOME) stays read-only even when it lies inside a
 * writable folder, so a sandboxed command can never rewrite a session record or the ledger.
 */
export function sandboxPolicy(
  settings: SandboxSettings,
  cwd: string,
  home: string | undefined,
): SandboxPolicy | undefined {
  if (settings.mode === "off") return undefined;
  const workspace = real(cwd);
  const writable = [real(tmpdir())];
  if (settings.mode === "workspace-write") writable.push(workspace, ...settings.writableRoots.map(real));
  const readOnly: string[] = [];
  // Code execution hides in .git/config (core.fsmonitor, hooks) and tern's own config in .tern/,
  // also of repositories nested in the workspace (a git command run there later obeys them).
  for (const path of protectedFolders(workspace)) readOnly.push(real(path));
  // Only a writable workspace needs them (read-only mode cannot create anything there).
  const placeholders =
    settings.mode === "workspace-write"
      ? [...PROTECTED].map((name) => join(workspace, name)).filter((p) => !existsSync(p))
      : [];
  const hidden: string[] = [];
  if (home && existsSync(home)) {
    const realHome = real(home);
    // A workspace inside TERN_HOME cannot be hidden from its own commands: it stays read-only only.
    if (isInside(realHome, workspace)) readOnly.push(realHome);
    else hidden.push(realHome);
  }
  return {
    mode: settings.mode,
    network: settings.network,
    writable: [...new Set(writable)],
    readOnly: [...new Set([...readOnly, ...placeholders])],
    placeholders,
    hidden,
    cwd: workspace,
  };
}

const PROTECTED = new Set([".git", ".tern"]);
/** Folders searched for nested repositories last: large, and seldom where a person runs git. */
const LATER = new Set(["node_modules", ".venv", "venv", "__pycache__", "target", "dist", "build"]);
/** A bound on the search (a giant tree keeps what was found); ~100 ms of readdir. */
const MAX_FOLDERS = 20_000;

/**
 * `.git` and `.tern` entries of the workspace and of folders below it at any depth, breadth
 * first, dependency and build folders after the rest; bounded in folders searched.
 */
export function protectedFolders(workspace: string): string[] {
  const found: string[] = [];
  const queue = [workspace];
  const later: string[] = [];
  let seen = 0;
  for (let i = 0; seen < MAX_FOLDERS; i++) {
    if (i === queue.length) {
      if (later.length === 0) break;
      queue.push(...later.splice(0));
    }
    seen++;
    let entries: Dirent[];
    try {
      entries = readdirSync(queue[i], { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const path = join(queue[i], entry.name);
      if (PROTECTED.has(entry.name)) found.push(path);
      else if (entry.isDirectory()) (LATER.has(entry.name) ? later : queue).push(path);
    }
  }
  return found;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
