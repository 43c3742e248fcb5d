// One MCP tool as a tern Tool (R-EXT): each call has its own timer (`timeoutSeconds`), its own
// abort signal linked to the turn's only while the call runs (so a cancel never reaches calls
// that already finished, and no listener stays behind on the turn's signal), progress
// notifications passed on, and errors carried as the server said them.
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/mini";
// zod's English messages, before any MCP tool's arguments are parsed (registry.parseArguments).
import "../../config/zod-messages.js";
import type { ToolSetConfig } from "../../config/types.js";
import type { Connection } from "./mcp-connect.js";
import { type McpContentLimits, mapMcpResult } from "./mcp-content.js";
import type { ListedTool } from "./mcp-list.js";
import { providerSchema } from "./mcp-schema.js";
import { formsOpen } from "./mcp-elicit.js";
import { errorMessage, fail } from "../results.js";
import type { Tool, ToolContext, ToolResult } from "../types.js";

/** setTimeout's ceiling; the SDK's own timer must never fire before tern's. */
const MAX_TIMER_MS = 2_147_483_647;

export interface McpToolSpec {
  set: ToolSetConfig;
  def: ListedTool;
  name: string;
  limits: McpContentLimits;
  /** The server's current connection (a reconnect replaces it), or why there is none. */
  connection(): Connection | string;
  /**
   * A new session with the server, after it answered 404 to the current one's id (it restarted
   * or dropped the session); resolves to the new connection, or why there is none.
   */
  renew(stale: Connection): Promise<Connection | string>;
}

/**
 * An HTTP server that no longer knows the session id answers 404; the MCP transport rules say the
 * client then starts a new session. The call never ran there, so sending it again is safe.
 */
function sessionGone(err: unknown): boolean {
  return err instanceof StreamableHTTPError && err.code === 404;
}

export function makeMcpTool(spec: McpToolSpec): Tool {
  const { set, def, name } = spec;
  const { schema, note } = providerSchema(def.inputSchema);
  const description = def.description ?? `${def.name} from the ${set.name} tool set.`;
  return {
    name,
    description: note ? `${description}\n${note}` : description,
    schema: z.record(z.string(), z.unknown()),
    jsonSchema: schema,
    kind: "mcp",
    mcp: { set: set.name, tool: def.name, readOnly: def.readOnly },
    paths: () => [],
    run: (args, ctx) => callTool(spec, args, ctx),
  };
}

async function callTool(
  spec: McpToolSpec,
  args: Record<string, unknown>,
  ctx: ToolContext,
): Promise<ToolResult> {
  const { set, name } = spec;
  let conn = spec.connection();
  if (typeof conn === "string")
    return fail(`${name} failed: the ${set.name} server is not running (${conn}).`);
  if (conn.closedReason)
    return fail(`${name} failed: the ${set.name} server is not running (${conn.closedReason}).`);
  const timeoutSeconds = set.timeoutSeconds;
  const call = new AbortController();
  let timedOut = false;
  // While the person fills in the server's form (R-MCP-3) the timer starts over rather than run out.
  const arm = (): NodeJS.Timeout =>
    setTimeout(
      () => {
        if (typeof conn !== "string" && formsOpen(conn.client) > 0) timer = arm();
        else {
          timedOut = true;
          call.abort();
        }
      },
      Math.min(timeoutSeconds * 1000, MAX_TIMER_MS),
    );
  let timer = arm();
  const onCancel = () => call.abort();
  ctx.signal.addEventListener("abort", onCancel, { once: true });
  if (ctx.signal.aborted) call.abort();
  const { progress, callId } = ctx;
  const send = (c: Connection) =>
    c.client.callTool({ name: spec.def.name, arguments: args }, undefined, {
      signal: call.signal,
      timeout: MAX_TIMER_MS,
      onprogress:
        progress && callId
          ? (p) => progress(callId, { progress: p.progress, total: p.total, message: p.message })
          : undefined,
    });
  try {
    let result: Awaited<ReturnType<typeof send>>;
    try {
      result = await send(conn);
    } catch (err) {
      if (!(sessionGone(err) || conn.sessionReplaced) || call.signal.aborted) throw err;
      const renewed = await spec.renew(conn);
      if (typeof renewed === "string")
        return fail(
          `${name} failed: the ${set.name} server lost the session and a new one failed (${renewed}).`,
        );
      conn = renewed;
      result = await send(conn);
    }
    return mapMcpResult(result as Parameters<typeof mapMcpResult>[0], spec.limits);
  } catch (err) {
    if (timedOut) return fail(`${name} timed out after ${timeoutSeconds}s.`);
    if (ctx.signal.aborted) return fail(`${name}: cancelled`);
    const msg = serverError(err);
    if (conn.closedReason) {
      const why = await conn.closedWhy();
      if (!why.startsWith("the server exited")) return fail(`${name} failed: ${why}`);
      const told = why.startsWith("the server exited: ") ? why.slice("the server exited: ".length) : "";
      return fail(`${name} failed: the ${set.name} server exited (${told || msg})`);
    }
    return fail(`${name} failed: ${msg}`);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onCancel);
  }
}

/** The server's own message: the SDK's `MCP error <code>: ` prefixes (one per hop) moved to the end. */
function serverError(err: unknown): string {
  if (!(err instanceof McpError)) {
    // fetch's own message is only "fetch failed"; the cause says which (refused, reset, DNS).
    const cause = (err as { cause?: unknown } | null)?.cause;
    const msg = errorMessage(err);
    return cause instanceof Error && !msg.includes(cause.message) ? `${msg} (${cause.message})` : msg;
  }
  const text = err.message.replace(/^(MCP error -?\d+: )+/, "");
  return `${text} (MCP error ${err.code})`;
}
