// A session's registry of the built-in tools: their definitions at once, their code on the
// first tool batch (ToolRegistry.ready, called by the executor). Reads and edits come with the
// session's language servers around them (code-intel.ts).
import { builtinDefinitions, loadBuiltinTools } from "./builtin/index.js";
import { withLanguageServers } from "./code-intel.js";
import { ToolRegistry } from "./registry.js";

export function createBuiltinRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.registerDeferred(builtinDefinitions, async () =>
    (await loadBuiltinTools()).map(withLanguageServers),
  );
  return registry;
}
