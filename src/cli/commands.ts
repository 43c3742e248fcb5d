// Every command's implementation, for program.ts. `tern run`, the command scripts start many
// times, loads with the parser (one chunk: see startPathAnchor in scripts/build-plugins.mjs);
// the others load when named, so what only they use (the line mode and its slash commands,
// export, fork, metrics, undo, config check) stays out of every run's start.
import type * as Archive from "./archive-commands.js";
import type * as Checkpoint from "./checkpoint-commands.js";
import type * as ConfigCheck from "./config-check.js";
import type * as HooksCommand from "./hooks-command.js";
import type * as Interactive from "./interactive.js";
import type * as WorktreeCommands from "./worktree-commands.js";
import type * as WorktreeSession from "./worktree-session.js";
import type * as Models from "./models-command.js";
import type * as McpCommands from "./mcp-commands.js";

export { acpCommand } from "./acp.js";
export { runCommand } from "./run.js";

const archive = () => import("./archive-commands.js");
const checkpoint = () => import("./checkpoint-commands.js");

export const sessionsCommand: typeof Archive.sessionsCommand = async (...a) =>
  (await archive()).sessionsCommand(...a);
export const exportCommand: typeof Archive.exportCommand = async (...a) =>
  (await archive()).exportCommand(...a);
export const forkCommand: typeof Archive.forkCommand = async (...a) => (await archive()).forkCommand(...a);
export const metricsCommand: typeof Archive.metricsCommand = async (...a) =>
  (await archive()).metricsCommand(...a);
export const undoCommand: typeof Checkpoint.undoCommand = async (...a) =>
  (await checkpoint()).undoCommand(...a);
export const redoCommand: typeof Checkpoint.redoCommand = async (...a) =>
  (await checkpoint()).redoCommand(...a);
export const diffCommand: typeof Checkpoint.diffCommand = async (...a) =>
  (await checkpoint()).diffCommand(...a);
export const configCheckCommand: typeof ConfigCheck.configCheckCommand = async (...a) =>
  (await import("./config-check.js")).configCheckCommand(...a);
export const interactiveCommand: typeof Interactive.interactiveCommand = async (...a) =>
  (await import("./interactive.js")).interactiveCommand(...a);
export const hooksTestCommand: typeof HooksCommand.hooksTestCommand = async (...a) =>
  (await import("./hooks-command.js")).hooksTestCommand(...a);

// Only a run with `--worktree`, or a resume, needs git's side: the rest pass through unloaded.
export const inWorktree: typeof WorktreeSession.inWorktree = async (opts, body) =>
  opts.worktree === undefined && typeof opts.resume !== "string"
    ? body()
    : (await import("./worktree-session.js")).inWorktree(opts, body);
export const worktreesCommand: typeof WorktreeCommands.worktreesCommand = async (...a) =>
  (await import("./worktree-commands.js")).worktreesCommand(...a);
export const worktreeRemoveCommand: typeof WorktreeCommands.worktreeRemoveCommand = async (...a) =>
  (await import("./worktree-commands.js")).worktreeRemoveCommand(...a);
export const modelsCommand: typeof Models.modelsCommand = async (...a) =>
  (await import("./models-command.js")).modelsCommand(...a);
const mcp = () => import("./mcp-commands.js");
export const mcpLoginCommand: typeof McpCommands.mcpLoginCommand = async (...a) =>
  (await mcp()).mcpLoginCommand(...a);
export const mcpLogoutCommand: typeof McpCommands.mcpLogoutCommand = async (...a) =>
  (await mcp()).mcpLogoutCommand(...a);
export const mcpListCommand: typeof McpCommands.mcpListCommand = async (...a) =>
  (await mcp()).mcpListCommand(...a);
