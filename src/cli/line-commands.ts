// Slash commands in the line mode (`tern --plain`): the shared table (src/commands) with a host
// that prints lines. The line mode reads no keys while a command runs, so timing needs no
// enforcing here; what needs the Ink UI (switching sessions in place, the side panel) says so.
import type { CommandHost } from "../commands/host.js";
import { unknownCommandText } from "../commands/suggest.js";
import { findCommand, parseCommandLine } from "../commands/table.js";
import type { Config } from "../config/types.js";
import type { Session } from "../engine/session.js";
import type { SideThread } from "./side-thread.js";

export const LINE_KEY_HINTS = ["Ctrl+C interrupts a running turn; twice on an empty prompt exits."];

export interface LineContext {
  session: Session;
  config: Config;
  home: string;
  cwd?: string;
  baseUrl?: string;
  /** USD so far (turns and compactions, the ledger's rows); null = some had an unknown price. */
  cost(): number | null;
  /** Side questions, asked beside the session and shown apart (they stay out of the ledger). */
  side: SideThread;
  print(text: string): void;
  /** Runs a turn-starting command while Ctrl+C interrupts it. */
  busy<T>(fn: () => Promise<T>): Promise<T>;
}

/** Runs one slash command; returns false when the front end should exit. */
export async function runLineCommand(text: string, ctx: LineContext): Promise<boolean> {
  const { name, args, rest } = parseCommandLine(text);
  const command = findCommand(name);
  if (!command) {
    ctx.print(unknownCommandText(name));
    return true;
  }
  let goOn = true;
  const host: CommandHost = {
    session: ctx.session,
    config: ctx.config,
    home: ctx.home,
    cwd: ctx.cwd ?? process.cwd(),
    baseUrl: ctx.baseUrl,
    keyHints: LINE_KEY_HINTS,
    cost: ctx.cost,
    sideCost: () => ctx.side.cost(),
    print: ctx.print,
    error: ctx.print,
    statusFacts: () => [],
    work: async (fn, phase) => {
      try {
        return await ctx.busy(fn);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        ctx.print(phase === "compacting" ? `compaction failed: ${message}` : message);
        return undefined;
      }
    },
    side: async (question) => ctx.print(await ctx.side.ask(question)),
    quit: () => {
      goOn = false;
    },
  };
  await command.run(host, args, rest);
  return goOn;
}
