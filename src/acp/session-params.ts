// What a client's session/new and session/load name, checked and turned into tern's terms: the
// workspace (an absolute path to an existing folder, as ACP requires), the MCP servers the client
// passes (stdio and Streamable HTTP; the deprecated SSE transport is skipped with a line on
// stderr), and why opening failed, as a JSON-RPC error whose message says it.
import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import type { OpenOptions } from "../engine/open.js";
import { SessionNotFoundError } from "../engine/door/errors.js";

type ExtraToolSets = NonNullable<OpenOptions["toolSets"]>;

/** The workspace a session names: refused unless it is an absolute path to a folder. */
export function checkCwd(cwd: string): void {
  if (!isAbsolute(cwd))
    throw acp.RequestError.invalidParams({ cwd }, `cwd must be an absolute path, got '${cwd}'`);
  let folder = false;
  try {
    folder = statSync(cwd).isDirectory();
  } catch {
    // Missing: said below.
  }
  if (!folder) throw acp.RequestError.invalidParams({ cwd }, `cwd '${cwd}' is not an existing folder`);
}

const pairs = (list: readonly { name: string; value: string }[] | undefined) =>
  Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));

/** The client's MCP servers as tool sets (the library makes their names valid and unique). */
export function clientToolSets(
  servers: readonly acp.McpServer[],
  warn: (line: string) => void,
): ExtraToolSets {
  const sets: ExtraToolSets = [];
  for (const server of servers) {
    if ("type" in server && server.type === "http") {
      sets.push({ name: server.name, url: server.url, headers: pairs(server.headers) });
    } else if ("type" in server && server.type === "sse") {
      warn(`tern acp: MCP server '${server.name}' (sse) skipped: tern speaks stdio and Streamable HTTP`);
    } else {
      const stdio = server as acp.McpServerStdio;
      sets.push({ name: stdio.name, command: stdio.command, args: stdio.args, env: pairs(stdio.env) });
    }
  }
  return sets;
}

/** Why a session could not be opened, as the error the client shows: never a bare "Internal error". */
export function openFailure(err: unknown, sessionId?: string): acp.RequestError {
  if (err instanceof acp.RequestError) return err;
  const message = (err instanceof Error ? err.message : String(err)).split("\n")[0];
  if (err instanceof SessionNotFoundError)
    return new acp.RequestError(-32002, `Resource not found: ${message}`, { sessionId });
  return acp.RequestError.internalError(undefined, message);
}
