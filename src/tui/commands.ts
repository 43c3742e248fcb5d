// Slash commands of the Ink UI (R-UI-3, R-UI-4, R-UI-6). Report-only commands answer at once,
// busy or not; session-changing ones stop the work first and run in the order typed.
import { ConfigError } from "../config/errors.js";
import { resolveModel } from "../config/resolve.js";
import { exportArchive, forkArchive, sessionsOf } from "../engine/archive.js";
import type { TuiController } from "./controller.js";
import { THINKING_HELP, thinkingCommand } from "../engine/thinking-command.js";
import { askSideQuestion } from "./side.js";
import { money } from "./state.js";

export const HELP = [
  "/help               this help",
  "/status             session, model, context and cost",
  "/cost               cost of this session so far",
  "/todos              the todo list",
  "/history [N]        the last N prompts (default 10)",
  "/stats              tool calls by tool",
  "/compact            summarize the context now (alias /summarize)",
  "/clear              start over with an empty context",
  "/resume [id]        list sessions, or switch to one",
  "/fork [turn]        continue in a copy of this session (up to a turn)",
  "/rewind [turn]      withdraw the turns after <turn> from the context",
  "/retry              run the last turn again",
  "/yolo [once]        approve every tool call (of the next turn with once)",
  "/model <id>         switch model, e.g. /model anthropic/claude-sonnet-4-5",
  THINKING_HELP,
  "/export [md|json]   print this session's archive",
  "/btw <question>     ask a side question (alias /side)",
  "/quit               exit",
  "Enter while busy queues a follow-up; empty Enter sends the queue now; Ctrl+C interrupts.",
  "Alt+Enter (or \\ then Enter) starts a new line; ↑/↓ recall earlier prompts; ←/→ Home/End move.",
].join("\n");

type Archive = TuiController["session"]["core"]["fold"]["archive"];

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((p: { type?: string; text?: string }) => (p.type === "text" ? (p.text ?? "") : "[image]"))
    .join(" ");
}

function status(ctl: TuiController): string {
  const s = ctl.state.status;
  const pct = s.contextWindow ? Math.round((s.lastPrompt / s.contextWindow) * 100) : 0;
  return [
    `session ${s.sessionId}`,
    `model ${s.model}`,
    `thinking ${ctl.session.core.model.thinking}`,
    `context ${pct}% (${s.lastPrompt}/${s.contextWindow})`,
    `tokens ${s.tokens}`,
    `cost ${money(s.cost)}${s.sideCost !== 0 ? ` (+ ${money(s.sideCost)} side questions)` : ""}`,
    ctl.state.busy ? "busy" : "idle",
    `queued ${ctl.state.queue.length}`,
  ].join(" · ");
}

function stats(archive: Archive): string {
  const counts = new Map<string, number>();
  for (const line of archive)
    if (line.type === "tool_result") counts.set(line.name, (counts.get(line.name) ?? 0) + 1);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return "no tool calls yet";
  return [
    `${total} tool calls`,
    ...[...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `  ${name.padEnd(14)} ${String(n).padStart(4)}  ${Math.round((n / total) * 100)}%`),
  ].join("\n");
}

const SWITCHING = new Set([
  "/clear",
  "/resume",
  "/fork",
  "/rewind",
  "/retry",
  "/model",
  "/thinking",
  "/yolo",
  "/compact",
  "/summarize",
]);

export async function runSlash(ctl: TuiController, text: string): Promise<void> {
  const [command, ...args] = text.split(/\s+/);
  const rest = text.slice(command.length).trim();
  const say = (out: string) => ctl.print("info", out);
  const session = ctl.session;
  if (ctl.isCompacting && SWITCHING.has(command)) {
    say(`${command} is not available while compacting (Ctrl+C cancels the compaction)`);
    return;
  }
  switch (command) {
    case "/quit":
    case "/exit":
      await ctl.quit();
      return;
    case "/help":
      say(HELP);
      return;
    case "/status":
      say(status(ctl));
      return;
    case "/cost":
      say(
        `cost so far: ${money(ctl.state.status.cost)}${ctl.state.status.sideCost !== 0 ? ` (+ ${money(ctl.state.status.sideCost)} side questions)` : ""}`,
      );
      return;
    case "/todos": {
      const todos = session.core.todos.get();
      const mark = { completed: "[x]", in_progress: "[>]", pending: "[ ]" } as const;
      say(todos.length === 0 ? "no todos" : todos.map((t) => `${mark[t.status]} ${t.content}`).join("\n"));
      return;
    }
    case "/history": {
      const n = args[0] ? Number(args[0]) : 10;
      if (!Number.isInteger(n) || n <= 0) return say("usage: /history [N]");
      const prompts = session.core.fold.archive.flatMap((l) => (l.type === "user_prompt" ? [l] : []));
      const shown = prompts.slice(-n).map((l) => `${String(l.turn).padStart(4)}  ${textOf(l.content)}`);
      say(shown.length ? shown.join("\n") : "no prompts yet");
      return;
    }
    case "/stats":
      say(stats(session.core.fold.archive));
      return;
    case "/btw":
    case "/side":
      if (!rest) return say(`usage: ${command} <question>`);
      void askSideQuestion(ctl, rest);
      return;
    case "/export":
      try {
        say(exportArchive(ctl.deps.home, session.id, args[0] === "json" ? "json" : "md"));
      } catch (err) {
        ctl.print("error", err instanceof Error ? err.message : String(err));
      }
      return;
    case "/clear":
      ctl.interruptForSwitch();
      await ctl.serial(async () => {
        await ctl.settled();
        await ctl.session.send({ type: "clear" });
        say("context cleared");
      });
      return;
    case "/resume": {
      if (!args[0]) {
        const list = sessionsOf(ctl.deps.home, ctl.deps.cwd);
        say(
          list.length
            ? list.map((s) => `${s.id}  ${s.started}  turns=${s.turns}  ${s.title}`).join("\n")
            : "no sessions in this workspace",
        );
        return;
      }
      ctl.interruptForSwitch();
      await ctl.serial(() => ctl.switchTo(args[0]));
      return;
    }
    case "/fork": {
      const turn = args[0] === undefined ? undefined : Number(args[0]);
      if (turn !== undefined && !Number.isInteger(turn)) return say("usage: /fork [turn]");
      ctl.interruptForSwitch();
      await ctl.serial(async () => {
        await ctl.settled();
        const id = forkArchive(ctl.deps.home, ctl.session.id, turn);
        await ctl.switchTo(id);
        say(`forked into ${id}`);
      });
      return;
    }
    default:
      break;
  }
  // The rest change the session or start work: not while a turn runs.
  if (ctl.state.busy && command !== "/compact" && command !== "/summarize" && SWITCHING.has(command)) {
    say(`${command} waits for an idle prompt: press Ctrl+C to interrupt the turn first`);
    return;
  }
  switch (command) {
    case "/compact":
    case "/summarize": {
      if (ctl.state.busy) return say(`${command} waits for an idle prompt`);
      const result = await ctl.runWork(() => session.send({ type: "compact" }), { kind: "compacting" });
      if (result) say(`compacted: ${result.before} → ${result.after} tokens`);
      return;
    }
    case "/rewind": {
      const turn = args[0] === undefined ? session.core.fold.lastTurn - 1 : Number(args[0]);
      try {
        await session.send({ type: "rewind", turn });
        say(`turns after ${turn} withdrawn from the context`);
      } catch (err) {
        ctl.print("error", err instanceof Error ? err.message : String(err));
      }
      return;
    }
    case "/retry":
      await ctl.runWork(() => session.send({ type: "retry" }), { kind: "thinking" });
      return;
    case "/yolo":
      if (args[0] === "once") {
        await session.send({ type: "yolo_once" });
        say("every tool call of the next turn is approved");
      } else if (args[0] === undefined) {
        session.core.policy.setMode("yolo");
        say("yolo: every tool call of this session is approved (deny rules still apply)");
      } else say("usage: /yolo [once]");
      return;
    case "/model":
      await switchModel(ctl, args[0]);
      return;
    case "/thinking": {
      const out = await thinkingCommand(args[0], session, ctl.config, ctl.deps.baseUrl);
      if (out.model) {
        ctl.store.dispatch({
          type: "session",
          model: out.model.id,
          sessionId: ctl.session.id,
          contextWindow: out.model.info.contextWindow,
          thinking: out.model.thinking,
        });
      }
      ctl.print(out.error ? "error" : "info", out.message);
      return;
    }
    default:
      say(`unknown command ${command}: /help lists the commands`);
  }
}

async function switchModel(ctl: TuiController, id: string | undefined): Promise<void> {
  if (!id) return ctl.print("info", `model: ${ctl.session.core.model.id} (usage: /model <provider/model>)`);
  try {
    const { model, notices } = resolveModel({ ...ctl.config, model: id }, process.env, {
      baseUrl: ctl.deps.baseUrl,
    });
    for (const notice of notices) ctl.print("info", `notice: ${notice}`);
    await ctl.session.send({ type: "set_model", model });
    ctl.store.dispatch({
      type: "session",
      model: model.id,
      sessionId: ctl.session.id,
      contextWindow: model.info.contextWindow,
      thinking: model.thinking,
      priced: model.info.pricing !== undefined,
    });
    ctl.print("info", `model: ${model.id}`);
  } catch (err) {
    if (err instanceof ConfigError) ctl.print("error", err.message);
    else throw err;
  }
}
