// Trust in one place (SPEC §10, amendment of 2026-12-07; R-CFG-2). A workspace the person has not
// listed in `trustedWorkspaces` (their own config.json) is a repository they may only have cloned:
// every file it brings — `.tern/config.json`, commands, skills, agents, hooks, the status line,
// plugins, Gemini commands, `.mcp.json`, language servers, instruction imports and `@file`
// attachments — asks this module the same question before it may run a program, approve a call
// or reach outside the workspace. Deny and ask rules from any layer always apply (they tighten).
import { realpathSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";

/** What a workspace's file wants to do that only trust allows. */
export type WorkspaceFileKind =
  | "config"
  | "command"
  | "skill"
  | "agent"
  | "hooks"
  | "status line"
  | "plugin"
  | "gemini command"
  | "mcp servers"
  | "language server";

/** What each kind of file would do that an untrusted workspace withholds, for the notice. */
const WITHHELD: Record<WorkspaceFileKind, string> = {
  config: "its loosening keys are ignored",
  command: "its allowed-tools grant nothing and its !`cmd` lines ask like any bash call",
  skill: "its allowed-tools grant nothing",
  agent: "it runs within your rules only",
  hooks: "hooks not run",
  "status line": "statusLine not run",
  plugin: "its hooks, servers and allowed-tools never run or grant",
  "gemini command": "its !{…} lines ask like any bash call",
  "mcp servers": "its servers do not start until you approve them",
  "language server": "its server never starts",
};

export const NOT_TRUSTED = "this workspace is not in trustedWorkspaces";

export function canonicalPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}

export function isInsidePath(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The one trust check: is this workspace one the person listed in their own `trustedWorkspaces`? */
export function workspaceTrusted(cwd: string, trustedWorkspaces: readonly string[]): boolean {
  const where = canonicalPath(cwd);
  return trustedWorkspaces.some((t) => canonicalPath(t) === where);
}

export interface WorkspaceFileVerdict {
  /** The file may run its programs and grant its rules. */
  trusted: boolean;
  /** Set when something the file asks for is withheld: one line naming the file and why. */
  notice?: string;
}

/**
 * The question every file a workspace brings asks (plugins, Gemini commands and language servers
 * too): may it run a program or approve a call? A file of the person's own folders (user scope)
 * always may; a workspace's file only when the workspace is trusted.
 */
export function workspaceFileTrust(opts: {
  kind: WorkspaceFileKind;
  /** The file (for the notice). */
  file: string;
  /** "project" for a file the workspace brought, "user" for the person's own. */
  scope: "project" | "user";
  cwd: string;
  trustedWorkspaces: readonly string[];
}): WorkspaceFileVerdict {
  if (opts.scope === "user" || workspaceTrusted(opts.cwd, opts.trustedWorkspaces)) return { trusted: true };
  return { trusted: false, notice: `${opts.file}: ${WITHHELD[opts.kind]}: ${NOT_TRUSTED}` };
}
