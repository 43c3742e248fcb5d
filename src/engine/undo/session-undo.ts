// The session commands on checkpoints — `undo`, `rewind_files`, `restore_files`, `redo` (R-CKPT-2,
// R-CKPT-3, R-UI-29) — and `/diff`, as `Session` runs them. undo.ts (restoring files, diffs) loads on first use (index.ts).
import type { NewRecord } from "../../record/types.js";
import type { SessionCore } from "../core.js";
import type { Checkpointer } from "./checkpoints.js";
import { newestTree } from "./checkpoints.js";
import type { UndoReport } from "./undo.js";
import { UndoError } from "./undo-error.js";
import { loadUndo } from "./index.js";

export type UndoCommand =
  | { type: "undo"; turns: number; force?: boolean }
  | { type: "rewind_files"; turn: number; force?: boolean }
  | { type: "restore_files"; turn: number; force?: boolean }
  | { type: "redo"; force?: boolean };

async function settledCheckpoints(core: SessionCore): Promise<Checkpointer> {
  const checkpoints = core.checkpoints;
  if (!checkpoints) throw new UndoError("checkpoints are off (config checkpoints.enabled)");
  await checkpoints.settle();
  return checkpoints;
}

export async function runUndoCommand(core: SessionCore, command: UndoCommand): Promise<UndoReport> {
  const checkpoints = await settledCheckpoints(core);
  const repo = await checkpoints.repository();
  const { undoTurns, restoreAfterTurn, restoreFilesOnly, redoUndo } = await loadUndo();
  const access = { archive: core.fold.archive, commit: (r: NewRecord) => void core.commit(r) };
  const force = command.force === true;
  const report =
    command.type === "undo"
      ? await undoTurns(repo, access, { turns: command.turns, force })
      : command.type === "rewind_files"
        ? await restoreAfterTurn(repo, access, { turn: command.turn, force })
        : command.type === "restore_files"
          ? await restoreFilesOnly(repo, access, { turn: command.turn, force })
          : await redoUndo(repo, access, { force });
  checkpoints.restoredTo(newestTree(core.fold.archive));
  return report;
}

/** A unified diff of what the session (or one turn) changed in the files. */
export async function sessionDiff(
  core: SessionCore,
  opts: { turn?: number; color: boolean },
): Promise<string> {
  const checkpoints = await settledCheckpoints(core);
  const { diffTurns } = await loadUndo();
  return diffTurns(await checkpoints.repository(), core.fold.archive, opts);
}
