// The tool registry and argument parsing (R-TOOL-5): bad JSON, schema violations and unknown
// names become tool results the model can learn from, never exceptions.
import "../config/zod-messages.js";
import { clip, fail } from "./results.js";
import type { Tool, ToolResult } from "./types.js";
import type { ToolSpec } from "../vocab/messages.js";

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  register(tool: Tool): void {
    if (this.tools.has(tool.name)) throw new Error(`tool '${tool.name}' is already registered`);
    this.tools.set(tool.name, tool);
  }

  /** Tools of a server that went away or reconnected leave and come back under the same names. */
  unregister(name: string): void {
    this.tools.delete(name);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** Tool definitions for the request, in registration order (stable, so prompt caches hit). */
  definitions(): ToolSpec[] {
    return [...this.tools.values()].map((t) => ({
      name: t.name,
      description: t.description,
      parameters: jsonSchemaOf(t),
    }));
  }
}

function jsonSchemaOf(tool: Tool): Record<string, unknown> {
  // Built-in tools get theirs from the build (from the sources: as their module loads), MCP tools
  // from their server.
  if (!tool.jsonSchema) throw new Error(`tool '${tool.name}' has no JSON schema`);
  return tool.jsonSchema;
}

export type ParsedArguments<Args> = { ok: true; args: Args } | { ok: false; result: ToolResult };

export function parseArguments<Args>(tool: Tool<Args>, raw: string): ParsedArguments<Args> {
  let value: unknown;
  // Some models send "" for a call without arguments.
  const text = raw.trim() === "" ? "{}" : raw;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      ok: false,
      result: fail(
        `Invalid arguments for ${tool.name}: not valid JSON (${why}). The arguments must be a JSON object. ` +
          `Received: ${clip(raw, 2000)}`,
      ),
    };
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) {
    return {
      ok: false,
      result: fail(
        `Invalid arguments for ${tool.name}: the arguments must be a JSON object. Received: ${clip(raw, 2000)}`,
      ),
    };
  }
  const parsed = tool.schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 6)
      .map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`)
      .join("; ");
    return { ok: false, result: fail(`Invalid arguments for ${tool.name}: ${issues}`) };
  }
  return { ok: true, args: parsed.data };
}

export function unknownToolResult(name: string, available: string[]): ToolResult {
  return fail(`Unknown tool '${clip(name, 200)}'. Available tools: ${available.join(", ")}.`);
}
