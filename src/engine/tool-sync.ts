// MCP tools join the session when their servers are ready (R-EXT): before each model request
// the engine waits for servers still starting (each at most its startTimeoutSeconds), puts the
// ready servers' tools in the registry, and records a new `context` line when the tool list the
// model sees changed, so a resume sends what the model saw. Servers approved while the session
// runs (`/mcp approve`, R-WF-3) start at once and their tools join the next request the same way.
// Without servers the list still follows the permission mode (tools/policy/mode-offer.ts): a mode
// switch (Shift+Tab, an approved exit_plan) changes it once, at the next request, recorded alike.
import type { ToolSetConfig } from "../config/types.js";
import type { ToolSets, ToolSetsOptions } from "../tools/mcp/mcp.js";
import { loadToolSets } from "../tools/mcp/index.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { SessionCore } from "./core.js";
import type { ToolSpec } from "../vocab/messages.js";

export function makeToolSync(
  core: SessionCore,
  registry: ToolRegistry,
  loading: Promise<ToolSets>,
  systemFor: (toolNames: string[]) => string,
): (signal: AbortSignal) => Promise<void> {
  /** What the servers put in the registry last time: taken out before the new lists go in. */
  let fromServers: string[] = [];
  return async (signal) => {
    const toolSets = await loading;
    const starting = toolSets.starting();
    if (starting.length > 0) {
      core.publish({ type: "notice", text: `waiting for tool sets to start: ${starting.join(", ")}` });
      await toolSets.ready(signal);
    }
    // A tool list a server just announced as changed is read before the request names the tools.
    await toolSets.settled(signal);
    for (const name of fromServers) registry.unregister(name);
    const offered = toolSets.tools(registry.names());
    for (const tool of offered) registry.register(tool);
    fromServers = offered.map((t) => t.name);
    recordToolList(core, registry, systemFor);
  };
}

/** Records a new `context` line when the tools the next request offers differ from the last. */
function recordToolList(
  core: SessionCore,
  registry: ToolRegistry,
  systemFor: (toolNames: string[]) => string,
): void {
  const tools: ToolSpec[] = registry.definitions();
  if (JSON.stringify(tools) === JSON.stringify(core.tools)) return;
  core.tools = tools;
  core.system = systemFor(tools.map((t) => t.name));
  core.commit({ type: "context", system: core.system, tools, sources: core.contextFiles });
}

/**
 * Wires the session's MCP servers: the configured ones start after `before` (the front end has
 * had its turn first), and `core.addToolSets` starts more later. The MCP module (~100 ms to
 * compile) loads only once a server is there to start.
 */
export function wireToolSets(
  core: SessionCore,
  registry: ToolRegistry,
  systemFor: (toolNames: string[]) => string,
  opts: ToolSetsOptions & { configs: ToolSetConfig[]; before: () => Promise<void> },
): void {
  const load = (configs: ToolSetConfig[], before: Promise<void>): Promise<ToolSets> => {
    const loading = before.then(loadToolSets).then(({ ToolSets }) => {
      const sets = new ToolSets(configs, opts);
      core.toolSets = sets;
      sets.start();
      return sets;
    });
    core.toolSetsLoading = loading;
    core.syncTools = makeToolSync(core, registry, loading, systemFor);
    return loading;
  };
  core.syncTools = async () => recordToolList(core, registry, systemFor);
  if (opts.configs.length > 0) load(opts.configs, opts.before());
  core.addToolSets = async (configs) => {
    if (core.toolSetsLoading) return (await core.toolSetsLoading).add(configs);
    if (configs.length === 0) return [];
    await load(configs, Promise.resolve());
    return configs.map((c) => c.name);
  };
}
