// R-WF-3 for the front ends: the workspace's `.mcp.json` servers with their state (for `/mcp`
// and `tern config check`), and the person's approval of them for this workspace, kept under
// TERN_HOME so the next session starts them.
import { mkdirSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  MCP_APPROVALS_FILE,
  type ProjectServers,
  projectMcpServers,
  readApprovals,
} from "../config/project-mcp.js";
import type { Config } from "../config/types.js";

const canonical = (path: string) => {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
};

export function projectServers(home: string, cwd: string, config: Config): ProjectServers {
  const where = canonical(cwd);
  if (!config.compat.claude) return { servers: [], toolSets: [], warnings: [] };
  return projectMcpServers({
    cwd,
    home,
    canonicalCwd: where,
    trusted: config.trustedWorkspaces.map(canonical).includes(where),
    // The configured sets, without the project's own (already merged into config.toolSets).
    taken: config.toolSets.filter((s) => s.fromFile === undefined).map((s) => s.name),
  });
}

/** Lines for `/mcp` and `tern config check`: each project server, started or why not. */
export function projectServerLines(servers: ProjectServers): string[] {
  if (!servers.file) return [];
  return [
    `project servers (${servers.file}):`,
    ...servers.servers.map(
      (s) =>
        `  ${s.name}${s.set !== s.name ? ` (as ${s.set})` : ""}: ${s.started ? "started" : `not started: ${s.why}`}`,
    ),
  ];
}

/** `/mcp approve`: every server of this workspace's `.mcp.json` as it is now; their names. */
export function approveProjectServers(home: string, cwd: string, config: Config): string[] {
  const found = projectServers(home, cwd, config);
  const approvals = readApprovals(home);
  const where = canonical(cwd);
  approvals[where] = Object.fromEntries(found.servers.map((s) => [s.name, s.definition]));
  mkdirSync(home, { recursive: true });
  const file = join(home, MCP_APPROVALS_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(approvals, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
  return found.servers.map((s) => s.name);
}
