// `/mcp login <name>` and `/mcp logout <name>` in a running session (R-MCP-1): the same login as
// `tern mcp login`, then the server connects again with its new tokens (or, after a logout, finds
// it needs a login).
import type { ServerStatus, ToolSets } from "../mcp.js";
import { loginServer } from "./login.js";
import { removeLogin } from "./token-store.js";

export async function loginInSession(
  sets: ToolSets,
  name: string,
  print: (line: string) => void,
  signal?: AbortSignal,
): Promise<ServerStatus> {
  const set = sets.config(name);
  if (!sets.opts.home) throw new Error("logins need TERN_HOME");
  await loginServer({ home: sets.opts.home, set, print, env: sets.opts.env, signal });
  return sets.reconnect(name);
}

export async function logoutInSession(sets: ToolSets, name: string): Promise<boolean> {
  sets.config(name);
  const had = sets.opts.home ? removeLogin(sets.opts.home, name) : false;
  await sets.reconnect(name);
  return had;
}
