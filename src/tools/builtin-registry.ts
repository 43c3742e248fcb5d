// A session's registry of the built-in tools: their definitions at once, their code on the
// first tool batch (ToolRegistry.ready, called by the executor).
import { builtinDefinitions, loadBuiltinTools } from "./builtin/index.js";
import { ToolRegistry } from "./registry.js";

export function createBuiltinRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.registerDeferred(builtinDefinitions, loadBuiltinTools);
  return registry;
}
