// Reading a server's tool list (R-EXT): every page (`nextCursor`), each tool checked on its own
// so one malformed definition skips that tool with a warning instead of losing the server, and
// tools that can only run as tasks left out (tern calls tools directly and would always fail).
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { foldableSchema } from "./mcp-schema.js";

/** A server that keeps handing out cursors must not hold the start forever. */
const MAX_PAGES = 100;

const PageSchema = z.looseObject({
  tools: z.array(z.unknown()),
  nextCursor: z.string().optional(),
});

export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  readOnly: boolean;
}

export interface ToolList {
  tools: ListedTool[];
  warnings: string[];
}

/** A schema of alternatives (a zod union) has no top-level type; it is an object all the same. */
function withObjectType(raw: unknown): unknown {
  const schema = (raw as { inputSchema?: unknown } | null)?.inputSchema;
  return foldableSchema(schema) ? { ...(raw as object), inputSchema: { ...schema, type: "object" } } : raw;
}

function nameOf(raw: unknown): string {
  const n = (raw as { name?: unknown } | null)?.name;
  return typeof n === "string" ? JSON.stringify(n) : "(unnamed)";
}

export async function listAllTools(
  client: Client,
  set: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<ToolList> {
  const tools: ListedTool[] = [];
  const warnings: string[] = [];
  const seenCursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request(
      { method: "tools/list", params: cursor === undefined ? {} : { cursor } },
      PageSchema,
      { timeout: timeoutMs, signal },
    );
    for (const raw of result.tools) {
      const parsed = ToolSchema.safeParse(withObjectType(raw));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        const where = issue ? `${issue.path.join(".") || "(tool)"}: ${issue.message}` : "invalid";
        warnings.push(`tool set '${set}': skipped tool ${nameOf(raw)}: malformed definition (${where})`);
        continue;
      }
      const def = parsed.data;
      if (def.execution?.taskSupport === "required") {
        warnings.push(
          `tool set '${set}': skipped tool "${def.name}": it runs only as a task, which tern does not support`,
        );
        continue;
      }
      tools.push({
        name: def.name,
        description: def.description,
        inputSchema: def.inputSchema as Record<string, unknown>,
        readOnly: def.annotations?.readOnlyHint === true,
      });
    }
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === "") break;
    if (seenCursors.has(cursor)) {
      warnings.push(`tool set '${set}': the tool list repeats a page cursor; stopped reading it`);
      break;
    }
    seenCursors.add(cursor);
  }
  return { tools, warnings };
}
