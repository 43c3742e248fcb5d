// Slash commands that leave this session's thread: list or switch sessions (`/resume`), continue
// in a copy (`/fork`), ask beside it (`/btw`), and quit.
import { forkArchive, sessionsOf } from "../workspace/session-queries.js";
import type { SlashCommand } from "./host.js";

export const sessionCommands = {
  resume: {
    name: "/resume",
    args: "[id]",
    description: "pick a session to switch to, or switch to one by id",
    timing: (args) => (args[0] ? "switch" : "now"),
    run: async (host, args) => {
      if (!args[0] && host.pickSession) return host.pickSession();
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
  fork: {
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
  btw: {
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
  quit: {
    name: "/quit",
    aliases: ["/exit"],
    description: "exit",
    timing: "quit",
    run: (host) => host.quit(),
  },
} satisfies Record<string, SlashCommand>;
