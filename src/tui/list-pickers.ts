// `/agents` and `/mcp` in the Ink UI (R-UI-28): the one picker (picker.ts) over the sub-agents a
// task call may name (Enter shows the one chosen: its description, where it is defined, what keeps
// it from running) and over the MCP servers (Enter reconnects the one chosen, as
// `/mcp reconnect <name>`).
import type { Config } from "../config/types.js";
import { agentsForCheck } from "../workspace/agents-check.js";
import type { PickerState } from "./picker.js";

type Agents = ReturnType<typeof agentsForCheck>["agents"];

export function agentsOf(cwd: string, home: string, config: Config): Agents {
  return agentsForCheck({ cwd, home, config, env: process.env }).agents;
}

export function agentsPicker(agents: Agents): PickerState {
  return {
    purpose: "agents",
    heading: "Agents",
    verb: "show",
    empty: "no agents",
    entries: agents.map((a) => ({
      id: a.name,
      title: `${a.name} · ${a.description || "(no description)"}`,
      search: `${a.name} ${a.description}`,
      facts: () => (a.problems.length > 0 ? `${a.source} · ${a.problems.length} problem(s)` : a.source),
    })),
    query: "",
    selected: 0,
  };
}

/** What Enter on an agent prints. */
export function agentText(agents: Agents, name: string): string {
  const a = agents.find((x) => x.name === name);
  if (!a) return `no agent ${name}`;
  return [
    `agent ${a.name} (${a.source}${a.path ? `: ${a.path}` : ""})`,
    `  ${a.description || "(no description)"}`,
    ...a.problems.map((p) => `  problem: ${p}`),
  ].join("\n");
}

export function mcpPicker(config: Config): PickerState {
  return {
    purpose: "mcp",
    heading: "MCP servers",
    verb: "reconnect",
    empty: "no MCP servers configured",
    entries: config.toolSets.map((s) => ({
      id: s.name,
      title: s.name,
      facts: () => (s.url ? `http ${s.url}` : `stdio ${s.command ?? ""}`),
    })),
    query: "",
    selected: 0,
  };
}
