// The built-in tools as a session sees them. A request needs only their definitions (name,
// description, JSON schema), which the build computes once; their code (bash and
// child_process, the file walker, web_fetch…) loads on the first tool batch, so a run whose
// model calls no tool never compiles it. From the sources (tests, the library), everything loads
// as this module does and the schemas are converted here.
import { onFirstUse } from "../../config/on-first-use.js";
import type { DeferredDefinition } from "../registry.js";
import type { Tool } from "../types.js";
import { ownTagPrefix } from "./process-tags.js";

/** What the registry knows of a built-in tool before its code is loaded. */
export type BuiltinDefinition = DeferredDefinition;

const all = onFirstUse(() => import("./all.js"), "the built-in tools' code");

declare const __TERN_BUILTIN_TOOLS__: string | undefined;

/** In the order they are sent. */
export let builtinDefinitions: readonly BuiltinDefinition[];
// An if/else the bundler folds (the define makes the condition a constant), so the converter's
// import() below is not even a chunk in the build.
if (typeof __TERN_BUILTIN_TOOLS__ === "string") {
  builtinDefinitions = JSON.parse(__TERN_BUILTIN_TOOLS__) as BuiltinDefinition[];
} else {
  const [{ builtinTools }, { toolJsonSchema }] = await Promise.all([all.load(), import("../json-schema.js")]);
  builtinDefinitions = builtinTools.map((t) => ({
    name: t.name,
    description: t.description,
    kind: t.kind,
    jsonSchema: toolJsonSchema(t.schema),
  }));
}

/** The built-in tools' code (the registry gives each the JSON schema of its definition). */
export async function loadBuiltinTools(): Promise<Tool[]> {
  return (await all.load()).builtinTools;
}

/** Stops what still carries `tag` (a job a crashed tern left running, R-JOB-2); loads the tools' code. */
export async function stopTaggedProcesses(tag: string): Promise<void> {
  await (await all.load()).stopTagged(tag);
}

/** Stops what bash calls and hooks left running (see bash.ts); nothing when none ever started. */
export async function settleProcessKills(): Promise<void> {
  if (all.started || ownTagPrefix() !== null) await (await all.load()).settleProcessKills();
}
