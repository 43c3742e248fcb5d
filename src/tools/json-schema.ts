// A tool's zod schema as the JSON schema sent to the model. The build converts the built-in tools'
// schemas once (scripts/build.mjs); only a run from the sources converts them at start, so the
// converter stays out of the bundle's start path.
import * as z from "zod/mini";
import { SAID_IN_DESCRIPTION as SAID } from "./lazy-schema.js";

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/**
 * A compact JSON schema: no `$schema`, no default safe-integer bounds, no `minLength: 1`, no lower
 * bound of 0 or 1 (a count or a 1-based number: the description says "1-based" where it matters),
 * nothing marked `saidInDescription` twice. They only cost bytes in every request; the zod schema
 * still refuses such values with a clear result.
 */
export function toolJsonSchema(schema: z.ZodMiniType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input" }) as Record<string, unknown>;
  delete json.$schema;
  return compact(json) as Record<string, unknown>;
}

function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!node || typeof node !== "object") return node;
  const source = node as Record<string, unknown>;
  if (source[SAID] === true) return bareType(source);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(source)) {
    if ((k === "maximum" && v === MAX_SAFE) || (k === "minimum" && v === -MAX_SAFE)) continue;
    if (k === "minLength" && v === 1) continue;
    if ((k === "minimum" && (v === 0 || v === 1)) || (k === "exclusiveMinimum" && v === 0)) continue;
    out[k] = compact(v);
  }
  return out;
}

/** `{type}` (an array's items likewise), keeping a description: no enum, fields or bounds. */
function bareType(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: node.type };
  if (node.items && typeof node.items === "object")
    out.items = bareType(node.items as Record<string, unknown>);
  if (typeof node.description === "string") out.description = node.description;
  return out;
}
