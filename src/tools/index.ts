// The tools module: built-ins, registry, approval, executor, MCP tool sets.
export { createBuiltinRegistry } from "./builtin-registry.js";
export {
  builtinDefinitions,
  loadBuiltinTools,
  settleProcessKills,
  type BuiltinDefinition,
} from "./builtin/index.js";
export { renderTodos } from "./todos-text.js";
export {
  ApprovalPolicy,
  type ApprovalCall,
  type ApprovalDecision,
  type ApprovalPolicyOptions,
  type ApprovalVerdict,
} from "./policy/approval.js";
export {
  ToolExecutor,
  type ApprovalAnswer,
  type BatchHooks,
  type PendingCall,
  type ToolExecutorOptions,
} from "./executor.js";
// mcp.js is not re-exported: a static path to it would pull the MCP SDK (and ajv) into the
// start path of every run; it loads through mcp/index.ts only when a tool set is configured.
export { TurnReadTracker } from "./read-tracker.js";
export {
  ToolRegistry,
  parseArguments,
  unknownToolResult,
  type ParsedArguments,
} from "./registry.js";
export { parseRule, simpleCommands, bashAllowMatches, bashDenyMatches, type Rule } from "./policy/rules.js";
export type * from "./types.js";
