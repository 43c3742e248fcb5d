// `tern mcp login <name>`, `tern mcp logout <name>`, `tern mcp list` (R-MCP-1).
import type { ToolSetConfig } from "../config/types.js";
import { mcpList, mcpLogin, mcpLogout } from "../workspace/mcp-logins.js";
import { loadSettings, ternHome } from "./setup.js";
import { formatTable } from "./table.js";
import { UsageError } from "./usage-error.js";
import { jsonText } from "../vocab/json-text.js";

async function serverSets(opts: { config?: string }): Promise<ToolSetConfig[]> {
  return (await loadSettings({ config: opts.config }, ternHome(), process.cwd())).config.toolSets;
}

async function oneSet(name: string, opts: { config?: string }): Promise<ToolSetConfig> {
  const sets = await serverSets(opts);
  const set = sets.find((s) => s.name === name);
  if (!set)
    throw new UsageError(
      `no MCP server '${name}' (configured: ${sets.map((s) => s.name).join(", ") || "none"})`,
    );
  if (set.url === undefined)
    throw new UsageError(`MCP server '${name}' runs over stdio: only HTTP servers log in`);
  return set;
}

export async function mcpLoginCommand(name: string, opts: { config?: string }): Promise<number> {
  const set = await oneSet(name, opts);
  const abort = new AbortController();
  const onSignal = () => abort.abort();
  process.once("SIGINT", onSignal);
  try {
    await mcpLogin(ternHome(), set, (line) => process.stderr.write(`${line}\n`), process.env, abort.signal);
    process.stdout.write(`logged in to ${name}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(
      `tern: ${name}: login failed: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    return 1;
  } finally {
    process.off("SIGINT", onSignal);
  }
}

export async function mcpLogoutCommand(name: string, opts: { config?: string }): Promise<number> {
  await oneSet(name, opts);
  const had = await mcpLogout(ternHome(), name);
  process.stdout.write(had ? `logged out of ${name}\n` : `${name} had no stored login\n`);
  return 0;
}

export async function mcpListCommand(opts: { config?: string; json?: boolean }): Promise<number> {
  const rows = await mcpList(ternHome(), process.cwd(), await serverSets(opts), process.env);
  if (opts.json) {
    process.stdout.write(`${jsonText(rows)}\n`);
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write("no MCP servers configured\n");
    return 0;
  }
  process.stdout.write(
    formatTable(
      ["name", "transport", "state", "tools", "why"],
      rows.map((r) => [r.name, r.transport, r.state, String(r.tools), r.reason ?? ""]),
    ),
  );
  return 0;
}
