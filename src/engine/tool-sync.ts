// MCP tools join the session when their servers are ready (R-EXT): before each model request
// the engine waits for servers still starting (each at most its startTimeoutSeconds), puts the
// ready servers' tools in the registry, and records a new `context` line when the tool list the
// model sees changed, so a resume sends what the model saw.
import type { ToolSets } from "../tools/mcp/mcp.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { SessionCore } from "./core.js";
import type { ToolSpec } from "../vocab/messages.js";

export function makeToolSync(
  core: SessionCore,
  registry: ToolRegistry,
  loading: Promise<ToolSets>,
  systemFor: (toolNames: string[]) => string,
): (signal: AbortSignal) => Promise<void> {
  return async (signal) => {
    const toolSets = await loading;
    const starting = toolSets.starting();
    if (starting.length > 0) {
      core.publish({ type: "notice", text: `waiting for tool sets to start: ${starting.join(", ")}` });
      await toolSets.ready(signal);
    }
    // A tool list a server just announced as changed is read before the request names the tools.
    await toolSets.settled(signal);
    for (const name of registry.names()) if (registry.get(name)?.kind === "mcp") registry.unregister(name);
    for (const tool of toolSets.tools(registry.names())) registry.register(tool);
    const tools: ToolSpec[] = registry.definitions();
    if (JSON.stringify(tools) === JSON.stringify(core.tools)) return;
    core.tools = tools;
    core.system = systemFor(tools.map((t) => t.name));
    core.commit({ type: "context", system: core.system, tools, sources: core.contextFiles });
  };
}
