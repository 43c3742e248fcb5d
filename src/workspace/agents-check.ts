// The agents of a workspace as `tern config check` lists them (R-AGENT-2), without opening a
// session: the built-in tools and the configured tool sets' names (an MCP tool counts as there
// when its set is configured; its server is not started to ask) are what an agent may name.
import { findAgents } from "../agents/files.js";
import { type AgentSummary, agentSummary } from "../agents/check.js";

export type { AgentSummary } from "../agents/check.js";
import { entryTool } from "../agents/tool-names.js";
import type { Config } from "../config/types.js";
import { builtinDefinitions } from "../tools/builtin/index.js";

export function agentsForCheck(opts: { cwd: string; home: string; config: Config; env: NodeJS.ProcessEnv }): {
  agents: AgentSummary[];
  warnings: string[];
} {
  const found = findAgents({
    cwd: opts.cwd,
    home: opts.home,
    userHome: opts.env.HOME,
    compat: opts.config.compat,
  });
  const sets = opts.config.toolSets.map((s) => s.name);
  const mcpNames = found.agents
    .flatMap((a) => a.tools ?? [])
    .map((entry) => entryTool(entry).replace(/^mcp__/, ""))
    .filter((name) => sets.some((set) => name.startsWith(`${set}__`)));
  const ctx = {
    toolNames: [...builtinDefinitions.map((d) => d.name), ...mcpNames],
    providers: Object.keys(opts.config.providers),
  };
  return { agents: found.agents.map((a) => agentSummary(a, ctx)), warnings: found.warnings };
}
