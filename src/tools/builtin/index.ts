// The built-in tools as a session sees them. A request needs only their definitions (name,
// description, JSON schema), which the build computes once; their code (bash and
// child_process, the file walker, web_fetch…) loads on the first tool batch, so a run whose
// model calls no tool never compiles it. From the sources (tests, the library), everything loads
// as this module does and the schemas are converted here.
import type { Tool, ToolKind } from "../types.js";

/** What the registry knows of a built-in tool before its code is loaded. */
export interface BuiltinDefinition {
  name: string;
  description: string;
  kind: ToolKind;
  jsonSchema: Record<string, unknown>;
}

let loading: Promise<typeof import("./all.js")> | undefined;
const loadAll = () => (loading ??= import("./all.js"));

declare const __TERN_BUILTIN_TOOLS__: string | undefined;

/** In the order they are sent. */
export let builtinDefinitions: readonly BuiltinDefinition[];
// An if/else the bundler folds (the define makes the condition a constant), so the converter's
// import() below is not even a chunk in the build.
if (typeof __TERN_BUILTIN_TOOLS__ === "string") {
  builtinDefinitions = JSON.parse(__TERN_BUILTIN_TOOLS__) as BuiltinDefinition[];
} else {
  const [{ builtinTools }, { toolJsonSchema }] = await Promise.all([loadAll(), import("../json-schema.js")]);
  builtinDefinitions = builtinTools.map((t) => ({
    name: t.name,
    description: t.description,
    kind: t.kind,
    jsonSchema: toolJsonSchema(t.schema),
  }));
}

/** The built-in tools' code (the registry gives each the JSON schema of its definition). */
export async function loadBuiltinTools(): Promise<Tool[]> {
  return (await loadAll()).builtinTools;
}

/** Stops what bash calls left running (see bash.ts); nothing to stop when no tool ever loaded. */
export async function settleProcessKills(): Promise<void> {
  if (loading) await (await loading).settleProcessKills();
}
