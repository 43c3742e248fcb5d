// The tool registry and argument parsing (R-TOOL-5): bad JSON, schema violations and unknown
// names become tool results the model can learn from, never exceptions.
import { z } from "zod";
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
      parameters: t.jsonSchema ?? toolJsonSchema(t.schema),
    }));
  }
}

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** A compact JSON schema: no `$schema`, no default safe-integer bounds (they only cost bytes). */
export function toolJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return stripSafeBounds(json) as Record<string, unknown>;
}

function stripSafeBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(stripSafeBounds);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) {
    if ((k === "maximum" && v === MAX_SAFE) || (k === "minimum" && v === -MAX_SAFE)) continue;
    out[k] = stripSafeBounds(v);
  }
  return out;
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
