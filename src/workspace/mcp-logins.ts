// `tern mcp login|logout|list` (R-MCP-1) for the CLI: each configured server's login, and its
// state as a session would find it (connected, needs login, failed) with its tool count. Runs no
// turn; the MCP module loads only here.
import type { ToolSetConfig } from "../config/types.js";
import { loadAuth, loadToolSets } from "../tools/mcp/index.js";

export interface McpServerRow {
  name: string;
  transport: "stdio" | "http";
  state: "connected" | "needs login" | "failed";
  tools: number;
  reason?: string;
}

export async function mcpLogin(
  home: string,
  set: ToolSetConfig,
  print: (line: string) => void,
  env: NodeJS.ProcessEnv,
  signal?: AbortSignal,
): Promise<void> {
  const { loginServer } = await loadAuth();
  await loginServer({ home, set, print, env, signal });
}

export async function mcpLogout(home: string, name: string): Promise<boolean> {
  const { removeLogin } = await loadAuth();
  return removeLogin(home, name);
}

/** Starts every server as a session would, reads its state, closes it. */
export async function mcpList(
  home: string,
  cwd: string,
  sets: ToolSetConfig[],
  env: NodeJS.ProcessEnv,
): Promise<McpServerRow[]> {
  const { ToolSets } = await loadToolSets();
  const servers = new ToolSets(sets, { cwd, home, env, notify: () => {} });
  servers.start();
  await servers.ready();
  const rows = servers.status().map((s): McpServerRow => {
    const needsLogin = s.state === "failed" && /^needs a login/.test(s.reason ?? "");
    return {
      name: s.name,
      transport: s.transport,
      state: s.state === "ready" ? "connected" : needsLogin ? "needs login" : "failed",
      tools: s.tools.length,
      ...(s.state === "ready" ? {} : { reason: s.reason }),
    };
  });
  await servers.close();
  return rows;
}
