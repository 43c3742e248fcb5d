// External tool sets (R-EXT): MCP servers over stdio, each tool listed as `<set>__<tool>`.
// A server that fails to start becomes a warning; a hanging or crashed server becomes a tool
// error, never a hang: every call has its own timer (`timeoutSeconds`, not bashTimeoutSeconds).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { z } from "zod";
import type { ToolSetConfig } from "../config/types.js";
import { mapMcpResult } from "./mcp-content.js";
import { errorMessage, fail } from "./results.js";
import type { Tool } from "./types.js";

const DEFAULT_TIMEOUT_SECONDS = 120;
/** Providers accept tool names matching ^[a-zA-Z0-9_-]{1,64}$. */
const MAX_NAME = 64;
const STDERR_TAIL = 2000;
/** A server that never finishes its handshake must not hold tern's start for the full call timeout. */
const MAX_STARTUP_SECONDS = 30;

function startupTimeoutMs(config: ToolSetConfig): number {
  return Math.min(config.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS, MAX_STARTUP_SECONDS) * 1000;
}

export interface LoadedToolSets {
  tools: Tool[];
  warnings: string[];
  close(): Promise<void>;
}

interface Connection {
  client: Client;
  /** Set once the server is gone, so later calls fail fast with the cause. */
  closedReason: string | null;
  stderr: string;
}

function toolName(set: string, tool: string): string {
  return `${set}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`.slice(0, MAX_NAME);
}

async function connect(config: ToolSetConfig, cwd: string): Promise<Connection> {
  const transport = new StdioClientTransport({
    command: config.command,
    args: config.args,
    env: { ...getDefaultEnvironment(), ...config.env },
    cwd,
    // The server's stderr must not scribble over the terminal UI; keep its tail for messages.
    stderr: "pipe",
  });
  const conn: Connection = {
    client: new Client({ name: "tern", version: "0.1.0" }),
    closedReason: null,
    stderr: "",
  };
  transport.stderr?.on("data", (b: Buffer) => {
    conn.stderr = (conn.stderr + b.toString("utf8")).slice(-STDERR_TAIL);
  });
  conn.client.onclose = () => {
    conn.closedReason ??= "the server exited";
  };
  try {
    await conn.client.connect(transport, { timeout: startupTimeoutMs(config) });
  } catch (err) {
    await conn.client.close().catch(() => {});
    throw err;
  }
  return conn;
}

function makeTool(
  set: ToolSetConfig,
  conn: Connection,
  def: { name: string; description?: string; inputSchema: Record<string, unknown> },
  name: string,
): Tool {
  const timeoutSeconds = set.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  return {
    name,
    description: def.description ?? `${def.name} from the ${set.name} tool set.`,
    schema: z.record(z.string(), z.unknown()),
    jsonSchema: { ...def.inputSchema, type: "object" },
    kind: "mcp",
    paths: () => [],
    async run(args, ctx) {
      if (conn.closedReason)
        return fail(`${name} failed: the ${set.name} server is not running (${conn.closedReason}).`);
      try {
        const result = await conn.client.callTool({ name: def.name, arguments: args }, undefined, {
          timeout: timeoutSeconds * 1000,
          signal: ctx.signal,
        });
        return mapMcpResult(result as Parameters<typeof mapMcpResult>[0]);
      } catch (err) {
        if (ctx.signal.aborted) return fail(`${name}: cancelled`);
        let msg = errorMessage(err);
        if (/timed out|timeout/i.test(msg)) return fail(`${name} timed out after ${timeoutSeconds}s.`);
        const stderr = conn.stderr.trim();
        if (conn.closedReason) msg = `the ${set.name} server exited (${msg})`;
        return fail(`${name} failed: ${msg}${stderr ? `\nserver stderr: ${stderr.slice(-500)}` : ""}`);
      }
    },
  };
}

export async function loadToolSets(configs: ToolSetConfig[], cwd: string): Promise<LoadedToolSets> {
  const tools: Tool[] = [];
  const warnings: string[] = [];
  const conns: Connection[] = [];
  type Started = { set: ToolSetConfig; conn?: Connection; defs: { name: string }[]; failure?: string };
  const loaded = await Promise.all(
    configs.map(async (set): Promise<Started> => {
      try {
        const conn = await connect(set, cwd);
        try {
          const listed = await conn.client.listTools(undefined, { timeout: startupTimeoutMs(set) });
          return { set, conn, defs: listed.tools };
        } catch (err) {
          await conn.client.close().catch(() => {});
          throw err;
        }
      } catch (err) {
        // Reported below in config order, whatever order the servers failed in.
        return { set, defs: [], failure: `tool set '${set.name}' failed to start: ${errorMessage(err)}` };
      }
    }),
  );
  const seen = new Set<string>();
  for (const entry of loaded) {
    if (!entry.conn) {
      warnings.push(entry.failure ?? `tool set '${entry.set.name}' failed to start`);
      continue;
    }
    conns.push(entry.conn);
    for (const def of entry.defs) {
      const name = toolName(entry.set.name, def.name);
      if (seen.has(name)) {
        warnings.push(`tool set '${entry.set.name}': skipped duplicate tool name ${name}`);
        continue;
      }
      seen.add(name);
      tools.push(makeTool(entry.set, entry.conn, def as never, name));
    }
  }
  return {
    tools,
    warnings,
    async close() {
      await Promise.all(conns.map((c) => c.client.close().catch(() => {})));
    },
  };
}
