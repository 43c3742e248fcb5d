// Slash commands of the line-mode front end (`tern` without a command). Each answers at once or
// sends one engine command; the Ink UI of SPEC §9 will take these over.
import { ConfigError } from "../config/errors.js";
import { addCost } from "../config/pricing.js";
import { resolveModel } from "../config/resolve.js";
import type { Config } from "../config/types.js";
import { exportArchive } from "../engine/archive.js";
import type { Session } from "../engine/session.js";
import { askSide, type SideExchange } from "../engine/side.js";
import { money } from "./table.js";
import { THINKING_HELP, thinkingCommand } from "../engine/thinking-command.js";

export const LINE_HELP = [
  "/help              this help",
  "/status            session, model and cost so far",
  "/cost              cost of this session so far",
  "/todos             the todo list",
  "/model <id>        switch model, e.g. /model anthropic/claude-sonnet-4-5",
  THINKING_HELP.replace("   ", "  "),
  "/yolo once         approve every tool call of the next turn",
  "/clear             start over with an empty context (the record keeps the past)",
  "/rewind <turn>     withdraw the turns after <turn> from the context",
  "/retry             run the last turn again with its user message",
  "/compact           summarize the context now (alias /summarize)",
  "/btw <question>    ask a side question (alias /side); it stays out of the session",
  "/export [md|json]  print this session's archive",
  "/quit              exit",
  "Ctrl+C interrupts a running turn; twice on an empty prompt exits.",
].join("\n");

export interface LineContext {
  session: Session;
  config: Config;
  home: string;
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
  const [command, ...args] = text.split(/\s+/);
  const { session } = ctx;
  switch (command) {
    case "/quit":
    case "/exit":
      return false;
    case "/help":
      ctx.print(LINE_HELP);
      break;
    case "/status":
      ctx.print(
        `session ${session.id} · ${session.core.model.id} · thinking ${session.core.model.thinking} · cost ${costText(ctx)}`,
      );
      break;
    case "/cost":
      ctx.print(`cost so far: ${costText(ctx)}`);
      break;
    case "/compact":
    case "/summarize":
      try {
        const { before, after } = await ctx.busy(() => session.send({ type: "compact" }));
        ctx.print(before === after ? "nothing to compact" : `compacted: ${before} → ${after} tokens`);
      } catch (err) {
        ctx.print(`compaction failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      break;
    case "/btw":
    case "/side": {
      const question = text.slice(command.length).trim();
      if (!question) ctx.print(`usage: ${command} <question>`);
      else ctx.print(await ctx.side.ask(question));
      break;
    }
    case "/todos": {
      const todos = session.core.todos.get();
      const mark = { completed: "[x]", in_progress: "[>]", pending: "[ ]" } as const;
      ctx.print(
        todos.length === 0 ? "no todos" : todos.map((t) => `${mark[t.status]} ${t.content}`).join("\n"),
      );
      break;
    }
    case "/model":
      await switchModel(args[0], ctx);
      break;
    case "/thinking":
      ctx.print((await thinkingCommand(args[0], session, ctx.config, ctx.baseUrl)).message);
      break;
    case "/yolo":
      if (args[0] !== "once") ctx.print("usage: /yolo once");
      else {
        await session.send({ type: "yolo_once" });
        ctx.print("every tool call of the next turn is approved");
      }
      break;
    case "/clear":
      await session.send({ type: "clear" });
      ctx.print("context cleared");
      break;
    case "/rewind": {
      const turn = Number(args[0]);
      try {
        await session.send({ type: "rewind", turn });
        ctx.print(`turns after ${turn} withdrawn from the context`);
      } catch (err) {
        ctx.print(err instanceof Error ? err.message : String(err));
      }
      break;
    }
    case "/retry":
      await ctx.busy(() => session.send({ type: "retry" }));
      break;
    case "/export": {
      const format = args[0] === "json" ? "json" : "md";
      ctx.print(exportArchive(ctx.home, session.id, format));
      break;
    }
    default:
      ctx.print(`unknown command ${command}: try /help`);
  }
  return true;
}

/** The session's cost; side questions' cost apart, when there were any (R-SIDE-4). */
function costText(ctx: LineContext): string {
  const side = ctx.side.cost();
  return side === 0 ? money(ctx.cost()) : `${money(ctx.cost())} (+ ${money(side)} side questions)`;
}

/** Side questions of this process (R-SIDE-1): the thread that goes with the next question. */
export class SideThread {
  private readonly history: SideExchange[] = [];
  private spent: number | null = 0;
  private controller: AbortController | undefined;

  constructor(private readonly session: Session) {}

  cost(): number | null {
    return this.spent;
  }

  /** Ctrl+C while a side question runs cancels it. Returns whether one was running. */
  cancel(): boolean {
    this.controller?.abort();
    return this.controller !== undefined;
  }

  async ask(question: string): Promise<string> {
    const controller = new AbortController();
    this.controller = controller;
    try {
      const result = await askSide(this.session, question, {
        history: this.history,
        signal: controller.signal,
        onEvent: () => {},
      });
      this.spent = addCost(this.spent, result.cost);
      if (!result.ok) return `side question failed: ${result.error}`;
      this.history.push({ question, answer: result.text });
      return `[side] ${result.text}`;
    } finally {
      this.controller = undefined;
    }
  }
}

async function switchModel(id: string | undefined, ctx: LineContext): Promise<void> {
  if (!id) {
    ctx.print(`model: ${ctx.session.core.model.id} (usage: /model <provider/model>)`);
    return;
  }
  try {
    const { model, notices } = resolveModel({ ...ctx.config, model: id }, process.env, {
      baseUrl: ctx.baseUrl,
    });
    for (const notice of notices) ctx.print(`notice: ${notice}`);
    await ctx.session.send({ type: "set_model", model });
    ctx.print(`model: ${model.id}`);
  } catch (err) {
    if (err instanceof ConfigError) ctx.print(err.message);
    else throw err;
  }
}
