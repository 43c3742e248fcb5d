// Slash commands over the files the session's turns changed: take turns back (`/undo`), put
// them back (`/redo`), and show what changed (`/diff`), all through the session's checkpoints.
import { formatRestored, UndoError, type UndoReport } from "../workspace/offline-undo.js";
import type { CommandHost, SlashCommand } from "./host.js";

export const fileCommands = {
  undo: {
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
  redo: {
    name: "/redo",
    description: "take back the newest /undo, files and turns",
    timing: "idle",
    run: (host) => fileChange(host, "redid", () => host.session.send({ type: "redo" })),
  },
  diff: {
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
} satisfies Record<string, SlashCommand>;

/** `/undo`, `/redo`, `/rewind N files`: what moved, or why not (a refusal names what to do). */
export async function fileChange(
  host: CommandHost,
  verb: string,
  run: () => Promise<UndoReport>,
): Promise<void> {
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
