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
    // A redo of a files-only restore moves no turn (R-UI-29).
    const turns = n === 0 ? "the files only" : `${n} turn${n === 1 ? "" : "s"} (${report.turns.join(", ")})`;
    host.print(
      `${verb} ${turns}; ${paths} path${paths === 1 ? "" : "s"} restored\n` +
        formatRestored(report.restored).trimEnd(),
    );
  } catch (err) {
    if (err instanceof UndoError) host.error(err.message);
    else throw err;
  }
}

/**
 * `/rewind [N] files-only [--force]` (R-UI-29): the files back to how they were after turn N
 * (default: before the last turn), the conversation kept; the next request tells the model.
 */
export async function restoreFilesOnly(host: CommandHost, args: string[]): Promise<void> {
  const force = args.includes("--force");
  const rest = args.filter((a) => a !== "files-only" && a !== "--files-only" && a !== "--force");
  const turn = rest[0] === undefined ? host.session.status().lastTurn - 1 : Number(rest[0]);
  if (rest.length > 1 || !Number.isInteger(turn) || turn < 0)
    return host.print("usage: /rewind [turn] files-only [--force]");
  try {
    const report = await host.session.send({ type: "restore_files", turn, force });
    host.print(filesOnlyText(turn + 1, report));
  } catch (err) {
    if (!(err instanceof UndoError)) throw err;
    const forced = `/rewind ${turn} files-only --force`;
    if (force || !err.message.includes("--force") || !host.offerForce)
      // The refusal names the CLI's --force; here it is the command's own.
      return host.error(err.message.replace("use --force", `use ${forced}`));
    // R-UI-29, as undo: files changed since the newest snapshot; a front end that can asks.
    host.error(err.message.replace(/ \(use --force[^)]*\)$/, ""));
    host.offerForce(forced);
  }
}

/** What a files-only restore did, for the transcript: the turns stay, the files went back. */
export function filesOnlyText(beforeTurn: number, report: UndoReport): string {
  const n = report.restored.length;
  return (
    `⟲ files restored to before turn ${beforeTurn} (the conversation is kept; /redo takes it back): ` +
    `${n} path${n === 1 ? "" : "s"}\n${formatRestored(report.restored).trimEnd()}`
  );
}
