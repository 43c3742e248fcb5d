// R-WF-3 at the UI's start: the servers of an untrusted workspace's `.mcp.json` that nobody has
// approved yet are offered in one line, the way Claude Code asks about a project's new servers;
// `/mcp approve` starts them at once and keeps the approval for this workspace.
import type { Config } from "../config/types.js";
import { projectServers } from "../workspace/project-servers.js";

export function projectServerOffer(home: string, cwd: string, config: Config): string | undefined {
  const found = projectServers(home, cwd, config);
  const waiting = found.servers.filter((s) => s.awaitingApproval).map((s) => s.name);
  if (waiting.length === 0) return undefined;
  return `${found.file} has MCP server${waiting.length === 1 ? "" : "s"} not approved for this workspace: ${waiting.join(", ")} · /mcp approve starts ${waiting.length === 1 ? "it" : "them"} now and in later sessions`;
}
