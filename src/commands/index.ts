// The face of commands/ for the start path: what every prompt needs loads with it, the slash
// commands (their table, the workspace's command files) on first use.
export { buildPromptContent, InputError } from "./prompt-input.js";
export { exitCodeFor } from "./exit-codes.js";

/** The slash-command table (the module cache keeps it: a second call loads nothing). */
export const loadSlashCommands = () => import("./slash.js");
