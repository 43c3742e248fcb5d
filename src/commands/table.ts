// The one table of slash commands (R-UI-6), shared by the Ink UI and the line mode: each
// command's name, argument hint, description, when it may run, and what it does through the
// session's door. The commands live by concern in *-commands.ts; this file orders them (the
// order of `/help` and the menu) and looks them up. Front ends decide only how timing is
// enforced (tui/commands.ts).
import { contextCommands } from "./context-commands.js";
import { contextCommand } from "./context-report.js";
import { fileCommands } from "./file-commands.js";
import { lspCommand } from "./lsp-command.js";
import type { CommandTiming, SlashCommand } from "./host.js";
import { reportCommands } from "./report-commands.js";
import { sessionCommands } from "./session-commands.js";
import { settingCommands } from "./setting-commands.js";
import { worktreeCommand } from "./worktree-commands.js";
import { uiCommands } from "./ui-commands.js";

const helpCommand: SlashCommand = {
  name: "/help",
  description: "this help",
  timing: "now",
  run: (host) => host.print([helpText(), ...host.keyHints].join("\n")),
};

const BUILTIN: readonly SlashCommand[] = [
  helpCommand,
  reportCommands.status,
  contextCommand,
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
  uiCommands.vim,
  uiCommands.theme,
  reportCommands.export,
  fileCommands.undo,
  fileCommands.redo,
  fileCommands.diff,
  reportCommands.mcp,
  reportCommands.jobs,
  lspCommand,
  reportCommands.agents,
  worktreeCommand,
  sessionCommands.btw,
  sessionCommands.quit,
];

/**
 * Every command, built-in first, then the workspace's custom commands and skills (R-WF-2) once a
 * front end registered them (`setWorkflowCommands`): one table for the menu, `/help` and ACP.
 */
export const COMMANDS: readonly SlashCommand[] = [...BUILTIN];

let workflowEntries: readonly SlashCommand[] = [];
let mcpEntries: readonly SlashCommand[] = [];

/** The table again: built-ins, then custom commands and skills, then MCP prompts; first name wins. */
function rebuild(): string[] {
  const table = COMMANDS as SlashCommand[];
  const taken = new Set(BUILTIN.flatMap((c) => [c.name, ...(c.aliases ?? [])]));
  const warnings: string[] = [];
  table.splice(BUILTIN.length);
  for (const command of [...workflowEntries, ...mcpEntries]) {
    if (taken.has(command.name)) {
      if (builtinCommand(command.name))
        warnings.push(`${command.source}: ${command.name} is a built-in command; the custom one is not used`);
      continue;
    }
    taken.add(command.name);
    table.push(command);
  }
  return warnings;
}

/**
 * Puts a workspace's custom commands and skills in the table, replacing earlier ones. A name a
 * built-in command has (or an alias) stays the built-in's: the notice names the file that lost.
 */
export function setWorkflowCommands(commands: readonly SlashCommand[]): string[] {
  workflowEntries = [...commands];
  return rebuild();
}

/** The MCP servers' prompts (`/mcp__<set>__<prompt>`), once the servers have started. */
export function setMcpPromptCommands(commands: readonly SlashCommand[]): void {
  mcpEntries = [...commands];
  rebuild();
}

/** The command a typed name means (aliases included), if any. */
export function findCommand(name: string): SlashCommand | undefined {
  return COMMANDS.find((c) => c.name === name || c.aliases?.includes(name));
}

/** Whether a name is one of tern's own commands (or an alias). */
export function builtinCommand(name: string): boolean {
  return BUILTIN.some((c) => c.name === name || c.aliases?.includes(name));
}

export function timingOf(command: SlashCommand, args: string[]): CommandTiming {
  return typeof command.timing === "function" ? command.timing(args) : command.timing;
}

/** `/name [args]  description` for each command, aligned; custom commands and skills after a heading. */
export function helpText(): string {
  const line = (c: SlashCommand) => {
    const head = `${c.name}${c.args ? ` ${c.args}` : ""}`;
    const alias = c.aliases?.length ? ` (alias ${c.aliases.join(", ")})` : "";
    return `${head.padEnd(20)} ${c.description}${alias}`;
  };
  const custom = COMMANDS.slice(BUILTIN.length);
  const lines = BUILTIN.map(line);
  if (custom.length > 0) lines.push("", "Custom commands and skills:", ...custom.map(line));
  return lines.join("\n");
}

/** Splits a typed command line into its name, arguments and the text after the name. */
export function parseCommandLine(text: string): { name: string; args: string[]; rest: string } {
  const trimmed = text.trim();
  const [name, ...args] = trimmed.split(/\s+/);
  return { name, args, rest: trimmed.slice(name.length).trim() };
}
