// For `tern config check` (§10): where the programs tern runs were found, the PATH entries never
// used for them, and whether the workspace is trusted — the facts behind "why does tern not run
// my repository's rg", in a few lines.
import { workspaceTrusted } from "../config/workspace-trust.js";
import { programPath, relativePathEntries } from "../programs/program-path.js";

const PROGRAMS = ["rg", "git", "bwrap", "bash"] as const;

export function programLines(cwd: string, trustedWorkspaces: readonly string[]): string[] {
  const found = PROGRAMS.map(
    (name) => `${name} ${programPath(name, { workspaces: [cwd] }) ?? "(not found)"}`,
  );
  const lines = [`programs: ${found.join(", ")} (absolute PATH entries outside the workspace only)`];
  const skipped = relativePathEntries();
  if (skipped.length)
    lines.push(
      `programs: PATH entries never used: ${skipped.map((e) => JSON.stringify(e)).join(", ")} (relative)`,
    );
  lines.push(
    workspaceTrusted(cwd, trustedWorkspaces)
      ? "workspace: trusted (in trustedWorkspaces): its commands, skills, hooks and servers may run and grant"
      : "workspace: not in trustedWorkspaces: its files are read, never obeyed (no hooks, servers or allowed-tools)",
  );
  return lines;
}
