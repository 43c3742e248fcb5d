// A tool's zod schema as the JSON schema sent to the model. The build converts the built-in tools'
// schemas once (scripts/build.mjs); only a run from the sources converts them at start, so the
// converter stays out of the bundle's start path.
import * as z from "zod/mini";

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A compact JSON schema: no `$schema`, no default safe-integer bounds, no `minLength: 1` (they only
 * cost bytes in every request; the zod schema still refuses an empty string with a clear result).
 */
export function toolJsonSchema(schema: z.ZodMiniType): Record<string, unknown> {
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
    if (k === "minLength" && v === 1) continue;
    out[k] = stripSafeBounds(v);
  }
  return out;
}
