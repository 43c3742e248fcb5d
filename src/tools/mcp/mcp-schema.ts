// An MCP tool's input schema as every provider takes it. Anthropic refuses a tool whose
// input_schema has `anyOf`, `oneOf` or `allOf` at the top level, and one such tool fails every
// request of the session (zod unions produce exactly that). The alternatives are folded into one
// object (their properties merged, what every form requires kept required) and the forms are
// named in the tool's description; the server still checks the arguments against its own schema.

type Json = Record<string, unknown>;

const COMBINATORS = ["anyOf", "oneOf", "allOf"] as const;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);

/** Whether a raw schema is one a provider could take once folded (an object, or alternatives of objects). */
export function foldableSchema(schema: unknown): schema is Json {
  return isObject(schema) && schema.type === undefined && COMBINATORS.some((k) => Array.isArray(schema[k]));
}

export interface ProviderSchema {
  schema: Json;
  /** What the folded alternatives required, for the tool's description; empty when nothing was folded. */
  note: string;
}

export function providerSchema(input: Json): ProviderSchema {
  const schema: Json = { ...input, type: "object" };
  const present = COMBINATORS.filter((k) => Array.isArray(input[k]));
  if (present.length === 0) return { schema, note: "" };
  const properties: Json = { ...(isObject(input.properties) ? input.properties : {}) };
  const required = new Set(strings(input.required));
  const forms: string[] = [];
  for (const key of present) {
    const branches = (input[key] as unknown[]).filter(isObject);
    for (const branch of branches)
      if (isObject(branch.properties))
        for (const [name, prop] of Object.entries(branch.properties)) properties[name] ??= prop;
    const needs = branches.map((b) => strings(b.required));
    if (key === "allOf") for (const n of needs.flat()) required.add(n);
    else {
      // Required by every alternative: required whichever form the call takes.
      const common = needs.length > 0 ? needs.reduce((a, b) => a.filter((x) => b.includes(x))) : [];
      for (const n of common) required.add(n);
      const shown = needs.filter((n) => n.length > 0).map((n) => `{${n.join(", ")}}`);
      if (shown.length > 0)
        forms.push(
          `${key === "oneOf" ? "exactly one" : "at least one"} of these argument sets: ${shown.join(" or ")}`,
        );
    }
    delete schema[key];
  }
  schema.properties = properties;
  if (required.size > 0) schema.required = [...required];
  else delete schema.required;
  return { schema, note: forms.length > 0 ? `Give ${forms.join("; ")}.` : "" };
}
