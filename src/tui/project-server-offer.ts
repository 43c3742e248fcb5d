// R-WF-3 at the UI's start: the servers of an untrusted workspace's `.mcp.json` that nobody has
// approved yet are offered in one line, the way Claude Code asks about a project's new servers;
// `/mcp approve` starts them at once and keeps the approval for this workspace.
import { relative } from "node:path";
import type { Config } from "../config/types.js";
import { projectServers } from "../workspace/project-servers.js";

export function projectServerOffer(
  home: string,
  cwd: string,
  config: Config,
  cols = process.stdout.columns || 100,
): string | undefined {
  const found = projectServers(home, cwd, config);
  const waiting = found.servers.filter((s) => s.awaitingApproval).map((s) => s.name);
  if (waiting.length === 0) return undefined;
  // A narrow first screen keeps its rows for the composer (R-UI-16): the file as the workspace
  // names it, the servers, the command.
  if (cols < 60)
    return `${found.file ? relative(cwd, found.file) : ".mcp.json"}: MCP server${waiting.length === 1 ? "" : "s"} ${waiting.join(", ")} not approved · /mcp approve`;
  return `${found.file} has MCP server${waiting.length === 1 ? "" : "s"} not approved for this workspace: ${waiting.join(", ")} · /mcp approve starts ${waiting.length === 1 ? "it" : "them"} now and in later sessions`;
}

/** Whether `notice` is a server the offer names, not started for want of approval: said once, by the offer. */
export function offerSays(offer: string | undefined, notice: string): boolean {
  return offer !== undefined && /: server .+ not started: not approved for this workspace/.test(notice);
}
