// The one table of slash commands (R-UI-6), shared by the Ink UI and the line mode: each
// command's name, argument hint, description, when it may run, and what it does through the
// session's door. The commands live by concern in *-commands.ts; this file orders them (the
// order of `/help` and the menu) and looks them up. Front ends decide only how timing is
// enforced (tui/commands.ts).
import { contextCommands } from "./context-commands.js";
import { fileCommands } from "./file-commands.js";
import type { CommandTiming, SlashCommand } from "./host.js";
import { reportCommands } from "./report-commands.js";
import { sessionCommands } from "./session-commands.js";
import { settingCommands } from "./setting-commands.js";

const helpCommand: SlashCommand = {
  name: "/help",
  description: "this help",
  timing: "now",
  run: (host) => host.print([helpText(), ...host.keyHints].join("\n")),
};

export const COMMANDS: readonly SlashCommand[] = [
  helpCommand,
  reportCommands.status,
  reportCommands.cost,
  reportCommands.todos,
  reportCommands.history,
  reportCommands.stats,
  contextCommands.compact,
  contextCommands.clear,
  sessionCommands.resume,
  sessionCommands.fork,
  contextCommands.rewind,
  contextCommands.retry,
  settingCommands.yolo,
  settingCommands.model,
  settingCommands.thinking,
  reportCommands.export,
  fileCommands.undo,
  fileCommands.redo,
  fileCommands.diff,
  reportCommands.mcp,
  reportCommands.jobs,
  sessionCommands.btw,
  sessionCommands.quit,
];

/** The command a typed name means (aliases included), if any. */
export function findCommand(name: string): SlashCommand | undefined {
  return COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
}

export function timingOf(command: SlashCommand, args: string[]): CommandTiming {
  return typeof command.timing === "function" ? command.timing(args) : command.timing;
}

/** `/name [args]  description` for each command, aligned. */
export function helpText(): string {
  return COMMANDS.map((c) => {
    const head = `${c.name}${c.args ? ` ${c.args}` : ""}`;
    const alias = c.aliases?.length ? ` (alias ${c.aliases.join(", ")})` : "";
    return `${head.padEnd(20)} ${c.description}${alias}`;
  }).join("\n");
}

/** Splits a typed command line into its name, arguments and the text after the name. */
export function parseCommandLine(text: string): { name: string; args: string[]; rest: string } {
  const trimmed = text.trim();
  const [name, ...args] = trimmed.split(/\s+/);
  return { name, args, rest: trimmed.slice(name.length).trim() };
}
