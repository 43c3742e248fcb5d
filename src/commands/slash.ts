// The slash-command table as a headless run uses it: look a command up, expand a custom one, the
// workspace's command files and MCP prompts as entries. Loaded through the folder's face
// (index.ts) only when a prompt starts with `/` or a front end that shows the table starts: a
// plain `tern run "…"` never reads the command folders or compiles the built-in commands.
export { builtinCommand, findCommand, parseCommandLine } from "./table.js";
export { expandMcpPrompt, registerMcpPrompts, registerWorkflowCommands } from "./workflow-commands.js";
export { commandModel } from "./command-model.js";
