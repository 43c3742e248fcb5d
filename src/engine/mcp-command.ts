// `/mcp` (R-EXT), one handler for every front end: lists the configured MCP servers with their
// state and tools, and `/mcp reconnect <name>` restarts one (its tools rejoin before the next
// model request). Returns the text to show; never throws for a user mistake.
import type { McpPrompt } from "../tools/mcp/mcp-prompts.js";
import { loadAuth } from "../tools/mcp/index.js";
import type { SessionCore } from "./core.js";
import { loadResources } from "../tools/mcp/index.js";

export const MCP_HELP =
  "/mcp [reconnect|login|logout <name>]  MCP servers: state and tools; reconnect one; log in or out";

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
  if (sub === "login" || sub === "logout") {
    const sets = core.toolSets;
    if (!sets) return describeServers(core);
    if (!name) return `usage: /mcp ${sub} <name> (configured: ${sets.names().join(", ")})`;
    try {
      const { loginInSession, logoutInSession } = await loadAuth();
      if (sub === "logout")
        return (await logoutInSession(sets, name)) ? `logged out of ${name}` : `${name} had no stored login`;
      const s = await loginInSession(sets, name, (text) => core.publish({ type: "notice", text }));
      return s.state === "ready"
        ? `logged in to ${name} · ${s.tools.length} tools`
        : `${name}: logged in, but it did not connect: ${s.reason ?? s.state}`;
    } catch (err) {
      return `${name}: login failed: ${err instanceof Error ? err.message : String(err)}`;
    }
  }
  return `usage: ${MCP_HELP}`;
}

/** The MCP prompts of the servers (R-WF-2), once every server has started; [] without servers. */
export async function mcpPrompts(core: SessionCore): Promise<McpPrompt[]> {
  const sets = await core.toolSetsLoading;
  if (!sets) return [];
  await sets.ready();
  return sets.prompts();
}

/** `/mcp__<set>__<prompt> args`: the prompt's text from its server. */
export async function mcpPromptText(
  core: SessionCore,
  prompt: McpPrompt,
  words: readonly string[],
): Promise<string> {
  const sets = await core.toolSetsLoading;
  if (!sets) throw new Error("no MCP servers configured");
  return sets.prompt(prompt, words);
}

/** `<server>:<uri>` of every resource the ready servers list, for the `@` menu (R-MCP-2). */
export async function mcpResourceMentions(core: SessionCore): Promise<string[]> {
  // Asked in the background: it may wait for servers still starting.
  const sets = await core.toolSetsLoading;
  await sets?.ready();
  if (!sets || sets.resourceServers().length === 0) return [];
  const { resourceUris } = await loadResources();
  return resourceUris(sets.resourceServers());
}
