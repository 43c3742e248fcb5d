// A built-in tool's argument schema is built on its first use, not when the module loads:
// building the zod schemas of every tool costs a headless start several ms, and a run whose model
// calls no tool never needs them (the request carries JSON schemas the build computed once).
import * as z from "zod/mini";

export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => {
    schema ??= build();
    return schema;
  };
}

/** The metadata key `saidInDescription` sets; `json-schema.ts` sends what carries it as a bare type. */
export const SAID_IN_DESCRIPTION = "saidInDescription";

/**
 * Marks a part of a tool's arguments whose values or fields its description already states
 * ("diagnostics, definition, …", "edits [{old_string, new_string}]"): sent as its bare type, so it
 * is said once. The zod schema still checks it in full and names what is allowed.
 */
export const saidInDescription = () => z.meta({ [SAID_IN_DESCRIPTION]: true });
