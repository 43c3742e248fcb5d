// The face of commands/ for the start path: what every prompt needs loads with it, the slash
// commands (their table, the workspace's command files) on first use.
export { buildPromptContent, InputError } from "./prompt-input.js";
export { exitCodeFor } from "./exit-codes.js";

export type SlashCommands = typeof import("./slash.js");
let slash: Promise<SlashCommands> | undefined;
/** The slash-command table, loaded once. */
export function loadSlashCommands(): Promise<SlashCommands> {
  slash ??= import("./slash.js");
  return slash;
}
