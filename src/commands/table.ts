// The one table of slash commands (R-UI-6), shared by the Ink UI and the line mode: each
// command's name, argument hint, description, when it may run, and what it does through the
// session's door. Front ends decide only how timing is enforced (tui/commands.ts).
import { ConfigError } from "../config/errors.js";
import { resolveModel } from "../config/resolve.js";
import { exportArchive, forkArchive, sessionsOf } from "../engine/session-queries.js";
import { renderTodos } from "../engine/session.js";
import { thinkingCommand } from "../engine/thinking-command.js";
import { formatRestored, turnsThatWrote, UndoError, type UndoReport } from "../engine/undo-commands.js";
import type { CommandHost, CommandTiming, SlashCommand } from "./host.js";
import { costText, historyText, statsText, statusText } from "./reports.js";

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

export const COMMANDS: readonly SlashCommand[] = [
  {
    name: "/help",
    description: "this help",
    timing: "now",
    run: (host) => host.print([helpText(), ...host.keyHints].join("\n")),
  },
  {
    name: "/status",
    description: "session, model, context and cost",
    timing: "now",
    run: (host) => host.print(statusText(host)),
  },
  {
    name: "/cost",
    description: "cost of this session so far",
    timing: "now",
    run: (host) => host.print(`cost so far: ${costText(host)}`),
  },
  {
    name: "/todos",
    description: "the todo list",
    timing: "now",
    run: (host) => {
      const todos = host.session.todos();
      host.print(todos.length === 0 ? "no todos" : renderTodos([...todos]));
    },
  },
  {
    name: "/history",
    args: "[N]",
    description: "the last N prompts (default 10)",
    timing: "now",
    run: (host, args) => {
      const n = args[0] ? Number(args[0]) : 10;
      if (!Number.isInteger(n) || n <= 0) return host.print("usage: /history [N]");
      host.print(historyText(host.session.transcript(), n));
    },
  },
  {
    name: "/stats",
    description: "tool calls by tool",
    timing: "now",
    run: (host) => host.print(statsText(host.session.transcript())),
  },
  {
    name: "/compact",
    aliases: ["/summarize"],
    description: "summarize the context now",
    timing: "idle",
    run: async (host) => {
      const result = await host.work(() => host.session.send({ type: "compact" }), "compacting");
      if (result)
        host.print(
          result.before === result.after
            ? "nothing to compact"
            : `compacted: ${result.before} → ${result.after} tokens`,
        );
    },
  },
  {
    name: "/clear",
    description: "start over with an empty context (the record keeps the past)",
    timing: "switch",
    run: async (host) => {
      await host.session.send({ type: "clear" });
      host.print("context cleared");
    },
  },
  {
    name: "/resume",
    args: "[id]",
    description: "list sessions, or switch to one",
    timing: (args) => (args[0] ? "switch" : "now"),
    run: async (host, args) => {
      if (!args[0]) {
        const list = sessionsOf(host.home, host.cwd);
        host.print(
          list.length
            ? list.map((s) => `${s.id}  ${s.started}  turns=${s.turns}  ${s.title}`).join("\n")
            : "no sessions in this workspace",
        );
        return;
      }
      if (!host.switchTo) return host.print(`to switch sessions here, restart with tern --resume ${args[0]}`);
      await host.switchTo(args[0]);
    },
  },
  {
    name: "/fork",
    args: "[turn]",
    description: "continue in a copy of this session (up to a turn)",
    timing: "switch",
    run: async (host, args) => {
      const turn = args[0] === undefined ? undefined : Number(args[0]);
      if (turn !== undefined && !Number.isInteger(turn)) return host.print("usage: /fork [turn]");
      const id = forkArchive(host.home, host.session.id, turn);
      if (!host.switchTo) return host.print(`forked into ${id}: continue it with tern --resume ${id}`);
      await host.switchTo(id);
      host.print(`forked into ${id}`);
    },
  },
  {
    name: "/rewind",
    args: "[turn] [files]",
    description: "withdraw the turns after <turn> from the context (files: restore the files too)",
    timing: "idle",
    run: async (host, args) => {
      const withFiles = args.includes("files") || args.includes("--files");
      const rest = args.filter((a) => a !== "files" && a !== "--files");
      const turn = rest[0] === undefined ? host.session.status().lastTurn - 1 : Number(rest[0]);
      if (!Number.isInteger(turn) || turn < 0) return host.print("usage: /rewind [turn] [files]");
      if (withFiles)
        return fileChange(host, "rewound", () =>
          host.session.send({ type: "undo", turns: 0, fromTurn: turn + 1 }),
        );
      try {
        await host.session.send({ type: "rewind", turn });
        host.print(`turns after ${turn} withdrawn from the context`);
        // The files keep what those turns did: offer to take that back too (R-CKPT-3).
        const wrote = turnsThatWrote(host.session.transcript(), turn);
        if (wrote.length > 0)
          host.print(
            `the files still hold what turn${wrote.length === 1 ? "" : "s"} ${wrote.join(", ")} changed: ` +
              `/rewind ${turn} files restores them too (/diff shows the changes)`,
          );
      } catch (err) {
        host.error(errorText(err));
      }
    },
  },
  {
    name: "/retry",
    description: "run the last turn again",
    timing: "idle",
    run: async (host) => {
      await host.work(() => host.session.send({ type: "retry" }), "thinking");
    },
  },
  {
    name: "/yolo",
    args: "[once]",
    description: "approve every tool call (of the next turn with once)",
    timing: "idle",
    run: async (host, args) => {
      if (args[0] === "once") {
        await host.session.send({ type: "yolo_once" });
        host.print("every tool call of the next turn is approved");
      } else if (args[0] === undefined) {
        await host.session.send({ type: "set_mode", mode: "yolo" });
        host.print("yolo: every tool call of this session is approved (deny rules still apply)");
      } else host.print("usage: /yolo [once]");
    },
  },
  {
    name: "/model",
    args: "<id>",
    description: "switch model, e.g. /model anthropic/claude-sonnet-4-5",
    timing: "idle",
    run: (host, args) => switchModel(host, args[0]),
  },
  {
    name: "/thinking",
    args: "[level]",
    description: "reasoning level: off, low, medium or high",
    timing: "idle",
    run: async (host, args) => {
      const out = await thinkingCommand(args[0], host.session, host.config, host.baseUrl);
      if (out.model) host.modelChanged?.(out.model);
      if (out.error) host.error(out.message);
      else host.print(out.message);
    },
  },
  {
    name: "/export",
    args: "[md|json]",
    description: "print this session's archive",
    timing: "now",
    run: (host, args) => {
      try {
        host.print(exportArchive(host.home, host.session.id, args[0] === "json" ? "json" : "md"));
      } catch (err) {
        host.error(errorText(err));
      }
    },
  },
  {
    name: "/undo",
    args: "[N]",
    description: "put the files back as they were before the last N turns (default 1)",
    timing: "idle",
    run: (host, args) => {
      const turns = args[0] === undefined ? 1 : Number(args[0]);
      if (!Number.isInteger(turns) || turns < 1) return host.print("usage: /undo [N]");
      return fileChange(host, "undid", () => host.session.send({ type: "undo", turns }));
    },
  },
  {
    name: "/redo",
    description: "take back the newest /undo, files and turns",
    timing: "idle",
    run: (host) => fileChange(host, "redid", () => host.session.send({ type: "redo" })),
  },
  {
    name: "/diff",
    args: "[turn]",
    description: "what this session (or one turn) changed in the files",
    timing: "now",
    run: async (host, args) => {
      const turn = args[0] === undefined ? undefined : Number(args[0]);
      if (turn !== undefined && (!Number.isInteger(turn) || turn < 1))
        return host.print("usage: /diff [turn]");
      try {
        const text = await host.session.diff({ turn, color: false });
        host.print(text.trimEnd() || "no file changes");
      } catch (err) {
        if (err instanceof UndoError) host.error(err.message);
        else throw err;
      }
    },
  },
  {
    name: "/mcp",
    args: "[reconnect <name>]",
    description: "MCP servers: state and tools; reconnect one",
    timing: "now",
    run: async (host, args) => host.print(await host.session.mcp(args)),
  },
  {
    name: "/btw",
    aliases: ["/side"],
    args: "<question>",
    description: "ask a side question",
    timing: "now",
    run: async (host, _args, rest) => {
      if (!rest) return host.print("usage: /btw <question>");
      await host.side(rest);
    },
  },
  {
    name: "/quit",
    aliases: ["/exit"],
    description: "exit",
    timing: "quit",
    run: (host) => host.quit(),
  },
];

/** `/undo` and `/redo`: what moved, or why not (a refusal names what to do). */
async function fileChange(host: CommandHost, verb: string, run: () => Promise<UndoReport>): Promise<void> {
  try {
    const report = await run();
    const n = report.turns.length;
    const paths = report.restored.length;
    host.print(
      `${verb} ${n} turn${n === 1 ? "" : "s"} (${report.turns.join(", ")}); ${paths} path${paths === 1 ? "" : "s"} restored\n` +
        formatRestored(report.restored).trimEnd(),
    );
  } catch (err) {
    if (err instanceof UndoError) host.error(err.message);
    else throw err;
  }
}

async function switchModel(host: CommandHost, id: string | undefined): Promise<void> {
  if (!id) return host.print(`model: ${host.session.status().model.id} (usage: /model <provider/model>)`);
  try {
    const { model, notices } = resolveModel({ ...host.config, model: id }, process.env, {
      baseUrl: host.baseUrl,
    });
    for (const notice of notices) host.print(`notice: ${notice}`);
    await host.session.send({ type: "set_model", model });
    host.modelChanged?.(model);
    host.print(`model: ${model.id}`);
  } catch (err) {
    if (err instanceof ConfigError) host.error(err.message);
    else throw err;
  }
}

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
