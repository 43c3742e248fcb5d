// What a sandboxed shell may touch (R-SBX-2), independent of the mechanism: the folders that are
// writable, the ones that stay read-only inside them, and whether the network is reachable.
import { type Dirent, existsSync, readdirSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

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
  if (home && existsSync(home)) readOnly.push(real(home));
  return {
    mode: settings.mode,
    network: settings.network,
    writable: [...new Set(writable)],
    readOnly: [...new Set(readOnly)],
    cwd: workspace,
  };
}

const PROTECTED = new Set([".git", ".tern"]);
/** Folders never searched for nested repositories: large, and not where a person runs git. */
const SKIPPED = new Set(["node_modules", ".venv", "venv", "__pycache__", "target", "dist", "build"]);
const MAX_FOLDERS = 4_000;
const MAX_DEPTH = 6;

/**
 * `.git` and `.tern` entries of the workspace and of folders below it, breadth first, bounded in
 * folders and depth (a workspace too large to search keeps what was found so far).
 */
export function protectedFolders(workspace: string): string[] {
  const found: string[] = [];
  let level = [workspace];
  let seen = 0;
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0 && seen < MAX_FOLDERS; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (++seen > MAX_FOLDERS) break;
      let entries: Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const entry of entries) {
        const path = join(dir, entry.name);
        if (PROTECTED.has(entry.name)) found.push(path);
        else if (entry.isDirectory() && !SKIPPED.has(entry.name)) next.push(path);
      }
    }
    level = next;
  }
  return found;
}
