// The face of tui/ for what the UI loads after its first frame: the slash commands' code (the
// composer and the session picker ask here). The UI itself is started by cli/interactive.ts.
export const loadUiCommands = () => import("./commands.js");
