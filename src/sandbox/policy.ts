// What a sandboxed shell may touch (R-SBX-2), independent of the mechanism: the folders that are
// writable, the ones that stay read-only inside them, and whether the network is reachable.
import { existsSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import { isHeldPlaceholder } from "./placeholders.js";
import { PROTECTED, type ProtectedEntry, ProtectedScan, type ScanOptions } from "./protected-scan.js";

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
   * The `.git` and `.tern` that do not exist yet, of the workspace and beside each nested
   * repository's (also in `readOnly`): an empty folder is made there while a command runs, bound
   * read-only, so the command cannot create them (bubblewrap needs the mount point;
   * placeholders.ts makes and removes it).
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

/** A workspace's sandbox policy, made again for each command (`current`): nested repositories change. */
export interface SandboxBounds {
  current(): SandboxPolicy;
}

/**
 * The policy for one workspace. `home` (TERN_HOME) stays read-only even when it lies inside a
 * writable folder, so a sandboxed command can never rewrite a session record or the ledger.
 */
export function sandboxBounds(
  settings: SandboxSettings,
  cwd: string,
  home: string | undefined,
  scan: ScanOptions = {},
): SandboxBounds | undefined {
  if (settings.mode === "off") return undefined;
  const mode = settings.mode;
  const workspace = real(cwd);
  const writable = [real(tmpdir())];
  if (mode === "workspace-write") writable.push(workspace, ...settings.writableRoots.map(real));
  const protectedScan = new ProtectedScan(workspace, scan);
  return {
    current: () => {
      // Judged for each command: a TERN_HOME made after the session started is hidden too.
      const homeReadOnly: string[] = [];
      const hidden: string[] = [];
      if (home && existsSync(home)) {
        const realHome = real(home);
        // A workspace inside TERN_HOME cannot be hidden from its own commands: it stays read-only only.
        if (isInside(realHome, workspace)) homeReadOnly.push(realHome);
        else hidden.push(realHome);
      }
      // Code execution hides in .git/config (core.fsmonitor, hooks) and tern's own config in
      // .tern/, also of repositories nested in the workspace (a git command run there obeys them).
      const found = protectedScan.find();
      // Only a writable workspace needs placeholders (read-only mode cannot create anything).
      const placeholders = mode === "workspace-write" ? placeholdersFor(workspace, found) : [];
      const existing = found.filter((e) => !placeholders.includes(e.path)).map((e) => real(e.path));
      return {
        mode,
        network: settings.network,
        writable: [...new Set(writable)],
        readOnly: [...new Set([...existing, ...homeReadOnly, ...placeholders])],
        placeholders,
        hidden,
        cwd: workspace,
      };
    },
  };
}

/** The policy as of now (see sandboxBounds). */
export function sandboxPolicy(
  settings: SandboxSettings,
  cwd: string,
  home: string | undefined,
): SandboxPolicy | undefined {
  return sandboxBounds(settings, cwd, home)?.current();
}

/**
 * The `.git`/`.tern` that do not exist yet and must not be made: the workspace's, and beside each
 * nested repository's (a folder holding one of them). Placeholders other commands hold right now
 * stay placeholders, so the last command to end still removes them.
 */
function placeholdersFor(workspace: string, found: ProtectedEntry[]): string[] {
  const present = new Map<string, Set<string>>([[workspace, new Set()]]);
  for (const e of found) {
    if (isHeldPlaceholder(e.path)) continue;
    const names = present.get(e.folder) ?? new Set();
    names.add(e.name);
    present.set(e.folder, names);
  }
  const out: string[] = [];
  for (const [folder, names] of present)
    for (const name of PROTECTED) if (!names.has(name)) out.push(join(folder, name));
  return out;
}

function isInside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}
