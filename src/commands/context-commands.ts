// Slash commands that change what the model sees next: summarize (`/compact`), start over
// (`/clear`), withdraw turns (`/rewind`, optionally with their files) and run the last turn again.
import { turnsThatWrote } from "../workspace/offline-undo.js";
import { fileChange, restoreFilesOnly } from "./file-commands.js";
import { errorText, type SlashCommand } from "./host.js";

export const contextCommands = {
  compact: {
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
  clear: {
    name: "/clear",
    description: "start over with an empty context (the record keeps the past)",
    timing: "switch",
    run: async (host) => {
      await host.session.send({ type: "clear" });
      host.print("context cleared");
    },
  },
  rewind: {
    name: "/rewind",
    args: "[turn] [files|files-only]",
    description:
      "withdraw the turns after <turn> from the context (files: restore the files too; files-only: the files alone)",
    timing: "idle",
    run: async (host, args) => {
      // R-UI-29: the files alone, every turn kept (Claude Code's "Restore code").
      if (args.includes("files-only") || args.includes("--files-only")) return restoreFilesOnly(host, args);
      const withFiles = args.includes("files") || args.includes("--files");
      const rest = args.filter((a) => a !== "files" && a !== "--files");
      // R-UI-29: without a turn, a front end with a picker asks which prompt to go back to.
      if (rest[0] === undefined && !withFiles && host.pickRewind) return host.pickRewind();
      const turn = rest[0] === undefined ? host.session.status().lastTurn - 1 : Number(rest[0]);
      if (!Number.isInteger(turn) || turn < 0) return host.print("usage: /rewind [turn] [files]");
      if (withFiles)
        return fileChange(host, "rewound", () => host.session.send({ type: "rewind_files", turn }));
      try {
        await host.session.send({ type: "rewind", turn });
        host.print(
          turn === 0
            ? "every turn withdrawn from the context"
            : `turns after ${turn} withdrawn from the context`,
        );
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
  retry: {
    name: "/retry",
    description: "run the last turn again",
    timing: "idle",
    run: async (host) => {
      await host.work(() => host.session.send({ type: "retry" }), "thinking");
    },
  },
} satisfies Record<string, SlashCommand>;
