// An agent file's `tools` (R-AGENT-2): tern's tool names and Claude Code's for the same tools, so a
// `.claude/agents/*.md` written for Claude Code works unchanged. A rule such as `Bash(git *)`
// names its tool; the child stays within the parent's rules either way.

import { CLAUDE_TOOL_NAMES as CLAUDE_NAMES } from "../config/claude-tools.js";

/** The tool an entry names: `Bash(git *)` → `Bash`, `read_file` → `read_file`. */
export function entryTool(entry: string): string {
  const open = entry.indexOf("(");
  return (open < 0 ? entry : entry.slice(0, open)).trim();
}

/**
 * The tern tools an agent's `tools` entries name, and one problem per entry that names no tool
 * `known` holds (MCP tools by their `<set>__<tool>` or `mcp__<set>__<tool>` names).
 */
export function resolveToolEntries(
  entries: readonly string[],
  known: readonly string[],
): { tools: string[]; unknown: string[] } {
  const tools: string[] = [];
  const unknown: string[] = [];
  for (const entry of entries) {
    const name = entryTool(entry);
    const mapped = CLAUDE_NAMES[name] ?? [name.startsWith("mcp__") ? name.slice(5) : name];
    const present = mapped.filter((t) => known.includes(t));
    if (present.length === 0) unknown.push(name);
    for (const t of present) if (!tools.includes(t)) tools.push(t);
  }
  return { tools, unknown };
}
