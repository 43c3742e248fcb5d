// `/mcp` (R-EXT), one handler for every front end: lists the configured MCP servers with their
// state and tools, and `/mcp reconnect <name>` restarts one (its tools rejoin before the next
// model request). Returns the text to show; never throws for a user mistake.
import type { SessionCore } from "./core.js";

export const MCP_HELP = "/mcp [reconnect <name>]  MCP servers: state and tools; reconnect one";

function describeServers(core: SessionCore): string {
  const sets = core.toolSets;
  if (!sets)
    return core.settings.toolSets.length > 0
      ? `MCP servers loading: ${core.settings.toolSets.map((s) => s.name).join(", ")}`
      : "no MCP servers configured (add toolSets to the config; see the README)";
  const lines: string[] = [];
  for (const s of sets.status()) {
    const head = `${s.name} (${s.transport}) ${s.state}`;
    if (s.state === "ready") {
      lines.push(`${head} · ${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}`);
      if (s.tools.length > 0) lines.push(`  ${s.tools.join(", ")}`);
    } else lines.push(s.reason ? `${head}: ${s.reason}` : head);
  }
  return lines.join("\n");
}

export async function mcpCommand(core: SessionCore, args: string[]): Promise<string> {
  const [sub, name] = args;
  if (sub === undefined || sub === "" || sub === "list") return describeServers(core);
  if (sub === "reconnect") {
    const sets = core.toolSets;
    if (!sets) return describeServers(core);
    if (!name) return `usage: /mcp reconnect <name> (configured: ${sets.names().join(", ")})`;
    try {
      const s = await sets.reconnect(name);
      return s.state === "ready"
        ? `${name} reconnected · ${s.tools.length} tools`
        : `${name} did not reconnect: ${s.reason ?? s.state}`;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }
  return `usage: ${MCP_HELP}`;
}
