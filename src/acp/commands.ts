// Slash commands an ACP client may offer (`available_commands_update`): those of tern's shared
// table that make sense without a terminal (not /help's key list, /resume or /fork in place —
// session/load is ACP's way —, nor /quit). A prompt that starts with one runs it; what it prints
// comes back as the agent's message. `/btw` asks a side question that commits nothing.
import type * as acp from "@agentclientprotocol/sdk";
import type { CommandHost } from "../commands/host.js";
import { unknownCommandText } from "../commands/suggest.js";
import { COMMANDS, findCommand, parseCommandLine, setMcpPromptCommands } from "../commands/table.js";
import { mcpPromptCommands } from "../commands/workflow-commands.js";
import type { Config } from "../config/types.js";
import type { Session } from "../engine/session.js";
import type { SideExchange } from "../engine/door/side.js";
import type { TurnOutcome } from "../engine/door/outcome.js";
import { addCost } from "../vocab/cost.js";

const LOCAL_ONLY = new Set(["/help", "/resume", "/fork", "/quit"]);

export function availableCommands(): acp.AvailableCommand[] {
  return COMMANDS.filter((c) => !LOCAL_ONLY.has(c.name)).map(
    (c): acp.AvailableCommand => ({
      name: c.name.slice(1),
      description: c.description,
      ...(c.args ? { input: { hint: c.args } } : {}),
    }),
  );
}

/**
 * One client's command list (`available_commands_update`, sent again whenever it changes): the
 * shared table with the workspace's custom commands and skills, and the MCP servers' prompts as
 * `/mcp__<set>__<prompt>` once the servers have started (and again after a command such as
 * `/mcp approve` or `/mcp reconnect` may have changed them).
 */
export class CommandList {
  private sent: string | undefined;

  constructor(
    private readonly session: Session,
    private readonly send: (update: acp.SessionUpdate) => void,
  ) {}

  /** Sends the list unless the client has this one already. */
  announce(): void {
    const list = availableCommands();
    const text = JSON.stringify(list);
    if (text === this.sent) return;
    this.sent = text;
    this.send({ sessionUpdate: "available_commands_update", availableCommands: list });
  }

  /** The list now, and again once the session's MCP prompts are known. */
  refresh(): void {
    this.announce();
    this.session.mcpPrompts().then(
      (prompts) => {
        setMcpPromptCommands(mcpPromptCommands(prompts));
        this.announce();
      },
      () => {},
    );
  }
}

/** Side questions of one ACP session: their thread and what they cost (never in the ledger). */
export class SideQuestions {
  readonly history: SideExchange[] = [];
  spent: number | null = 0;
}

export interface CommandContext {
  session: Session;
  config: Config;
  home: string;
  cwd: string;
  baseUrl?: string;
  side: SideQuestions;
  cost(): number | null;
  say(text: string): void;
  /** Cancelled by session/cancel, like the turn a command starts. */
  signal: AbortSignal;
}

/** The remote slash command a prompt names, if it names one. */
export function remoteCommand(text: string): string | undefined {
  const { name } = parseCommandLine(text);
  if (!/^\/[A-Za-z]/.test(name)) return undefined;
  const command = findCommand(name);
  return command && !LOCAL_ONLY.has(command.name) ? command.name : undefined;
}

/** The "did you mean" line for a prompt naming a command tern does not have (R-UI-6), else undefined. */
export function unknownCommand(text: string): string | undefined {
  const { name } = parseCommandLine(text);
  if (!/^\/[A-Za-z]/.test(name) || findCommand(name)) return undefined;
  return unknownCommandText(name);
}

/** Runs a slash command; a turn it starts (`/retry`) gives its outcome. */
export async function runRemoteCommand(text: string, ctx: CommandContext): Promise<TurnOutcome | undefined> {
  const { name, args, rest } = parseCommandLine(text);
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
    sideCost: () => ctx.side.spent,
    print: ctx.say,
    error: ctx.say,
    keyHints: [],
    statusFacts: () => [],
    work: async (fn) => {
      try {
        const result = await fn();
        if (isTurnOutcome(result)) outcome = result;
        return result;
      } catch (err) {
        ctx.say(err instanceof Error ? err.message : String(err));
        return undefined;
      }
    },
    side: async (question) => {
      const result = await ctx.session.askSide(question, {
        history: ctx.side.history,
        signal: ctx.signal,
        onEvent: () => {},
      });
      ctx.side.spent = addCost(ctx.side.spent, result.cost);
      if (!result.ok) return ctx.say(`side question failed: ${result.error}`);
      ctx.side.history.push({ question, answer: result.text });
      ctx.say(`[side] ${result.text}`);
    },
    quit: () => {},
  };
  await command.run(host, args, rest);
  return outcome;
}

/** A turn's outcome among what a command's work resolved to (`/retry` gives one, `/compact` not). */
function isTurnOutcome(value: unknown): value is TurnOutcome {
  return typeof value === "object" && value !== null && "stopReason" in value && "turn" in value;
}
