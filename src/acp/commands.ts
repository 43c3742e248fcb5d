// Slash commands an ACP client may offer (`available_commands_update`): those of tern's shared
// table that make sense without a terminal, plus `/undo` and `/redo` through the session's
// commands. A prompt that starts with one of them runs it; what it prints comes back as the
// agent's message.
import { COMMANDS, findCommand, parseCommandLine } from "../commands/table.js";
import type { CommandHost } from "../commands/host.js";
import type { Config } from "../config/types.js";
import type { Session } from "../engine/session.js";
import type { TurnOutcome } from "../engine/stop.js";
import type * as acp from "@agentclientprotocol/sdk";

/** Need a terminal, a second session in place or leaving: not offered over ACP. */
const LOCAL_ONLY = new Set(["/help", "/resume", "/fork", "/btw", "/quit"]);

const UNDO_COMMANDS: acp.AvailableCommand[] = [
  {
    name: "undo",
    description: "restore the files to before the last N turns and withdraw them",
    input: { hint: "[N]" },
  },
  { name: "redo", description: "put back what the last undo took back" },
];

export function availableCommands(): acp.AvailableCommand[] {
  const table = COMMANDS.filter((c) => !LOCAL_ONLY.has(c.name)).map(
    (c): acp.AvailableCommand => ({
      name: c.name.slice(1),
      description: c.description,
      ...(c.args ? { input: { hint: c.args } } : {}),
    }),
  );
  return [...table, ...UNDO_COMMANDS];
}

export interface CommandContext {
  session: Session;
  config: Config;
  home: string;
  cwd: string;
  baseUrl?: string;
  cost(): number | null;
  say(text: string): void;
}

/** The remote slash command a prompt names, if it names one. */
export function remoteCommand(text: string): string | undefined {
  const { name } = parseCommandLine(text);
  if (!/^\/[A-Za-z]/.test(name)) return undefined;
  if (name === "/undo" || name === "/redo") return name;
  const command = findCommand(name);
  return command && !LOCAL_ONLY.has(command.name) ? command.name : undefined;
}

/** Runs a slash command; a turn it starts (`/retry`) gives its outcome. */
export async function runRemoteCommand(text: string, ctx: CommandContext): Promise<TurnOutcome | undefined> {
  const { name, args, rest } = parseCommandLine(text);
  if (name === "/undo" || name === "/redo") {
    const turns = args[0] ? Number(args[0]) : 1;
    if (name === "/undo" && (!Number.isInteger(turns) || turns <= 0)) {
      ctx.say("usage: /undo [N]");
      return undefined;
    }
    try {
      const report =
        name === "/undo"
          ? await ctx.session.send({ type: "undo", turns })
          : await ctx.session.send({ type: "redo" });
      const what = name === "/undo" ? "undone" : "redone";
      ctx.say(
        `${what}: turn${report.turns.length === 1 ? "" : "s"} ${report.turns.join(", ")}; ${report.restored.length} file(s) restored`,
      );
    } catch (err) {
      ctx.say(err instanceof Error ? err.message : String(err));
    }
    return undefined;
  }
  const command = findCommand(name);
  if (!command) return undefined;
  let outcome: TurnOutcome | undefined;
  const host: CommandHost = {
    session: ctx.session,
    config: ctx.config,
    home: ctx.home,
    cwd: ctx.cwd,
    baseUrl: ctx.baseUrl,
    cost: ctx.cost,
    print: ctx.say,
    error: ctx.say,
    keyHints: [],
    statusFacts: () => [],
    work: async (fn) => {
      try {
        const result = await fn();
        if (result && typeof result === "object" && "stopReason" in result)
          outcome = result as unknown as TurnOutcome;
        return result;
      } catch (err) {
        ctx.say(err instanceof Error ? err.message : String(err));
        return undefined;
      }
    },
    quit: () => {},
  };
  await command.run(host, args, rest);
  return outcome;
}
