// `/agents` (R-AGENT-2): each agent a `task` call may name, its description and where it comes
// from (its file, or built in), and under it what keeps it from running.
import type { AgentSummary } from "../workspace/agents-check.js";

const SOURCES: Record<AgentSummary["source"], string> = {
  project: "project",
  user: "user",
  "claude-project": "project, Claude Code",
  "claude-user": "user, Claude Code",
  builtin: "built in",
};

/** The agents, and after them each file that is no agent (one line naming it). */
export function agentsText({
  agents,
  warnings,
}: {
  agents: readonly AgentSummary[];
  warnings: readonly string[];
}): string {
  if (agents.length === 0) return "no agents";
  const width = Math.max(...agents.map((a) => a.name.length));
  const lines: string[] = [];
  for (const a of agents) {
    const where = a.path ? `${SOURCES[a.source]}: ${a.path}` : SOURCES[a.source];
    lines.push(`${a.name.padEnd(width)}  ${a.description || "(no description)"}  (${where})`);
    for (const problem of a.problems) lines.push(`${" ".repeat(width)}  problem: ${problem}`);
  }
  for (const warning of warnings) lines.push(`problem: ${warning}`);
  return lines.join("\n");
}
