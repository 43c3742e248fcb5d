// Every command's implementation, loaded by program.ts with one import() once the command line is
// parsed. One door rather than one per command: each dynamic import is a split point for the
// bundler, and more split points cut the shared code into more chunks, each one more file a
// start must find, resolve and compile.
export { acpCommand } from "./acp.js";
export { exportCommand, forkCommand, metricsCommand, sessionsCommand } from "./archive-commands.js";
export { diffCommand, redoCommand, undoCommand } from "./checkpoint-commands.js";
export { configCheckCommand } from "./config-check.js";
export { interactiveCommand } from "./interactive.js";
export { runCommand } from "./run.js";
