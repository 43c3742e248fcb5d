// `tern undo`, `tern redo`, `tern diff` outside a running session: open the record the way a
// resume does (a crash-cut exchange closed first), check every line before it is written, and
// restore into the session's own workspace, wherever the command was started.
import { RecordFold } from "../record/fold.js";
import { replayInto } from "../record/replay.js";
import { loadRecord } from "../record/load.js";
import { recoverOnLoad } from "../record/quiesce.js";
import { findSession, latestSession, openSessionWriter, recordFile } from "../record/store.js";
import type { NewRecord } from "../record/types.js";
import { shadowRepoFor } from "../engine/undo/checkpoints.js";
import { SessionNotFoundError } from "../engine/door/errors.js";
import {
  diffTurns,
  type RecordAccess,
  redoUndo,
  UndoError,
  type UndoReport,
  undoTurns,
} from "../engine/undo/undo.js";

export { UndoError, formatRestored, turnsThatWrote } from "../engine/undo/undo.js";
export type { UndoReport } from "../engine/undo/undo.js";
export { undoHistory } from "../record/undo-history.js";

interface Target {
  home: string;
  /** Where the command runs: picks the newest session when no id is given. */
  cwd: string;
  id?: string;
}

function locate({ home, cwd, id }: Target): { id: string; dir: string } {
  const found = id ? findSession(home, id) : latestSession(home, cwd);
  if (!found)
    throw new SessionNotFoundError(
      id ? `no session '${id}' (run 'tern sessions' to list them)` : "no session in this workspace yet",
    );
  return found;
}

async function withRecord<T>(
  target: Target,
  fn: (ctx: { access: RecordAccess; cwd: string; id: string }) => Promise<T>,
): Promise<T> {
  const { id, dir } = locate(target);
  const loaded = loadRecord(recordFile(dir));
  const fold = replayInto(new RecordFold(), loaded);
  const writer = openSessionWriter(dir, { lines: loaded.lines });
  try {
    const commit = (record: NewRecord) => {
      const why = fold.check(record);
      if (why) throw new UndoError(`cannot write ${record.type}: ${why}`);
      fold.apply(writer.append(record));
    };
    for (const record of recoverOnLoad(fold)) commit(record);
    const cwd = fold.sessionStart?.cwd || target.cwd;
    return await fn({ access: { archive: fold.archive, commit }, cwd, id });
  } finally {
    writer.close();
  }
}

export function undoCommand(target: Target, opts: { turns: number; force: boolean }): Promise<UndoReport> {
  return withRecord(target, async ({ access, cwd, id }) =>
    undoTurns(await shadowRepoFor(target.home, cwd, id), access, opts),
  );
}

export function redoCommand(target: Target, opts: { force: boolean }): Promise<UndoReport> {
  return withRecord(target, async ({ access, cwd, id }) =>
    redoUndo(await shadowRepoFor(target.home, cwd, id), access, opts),
  );
}

export async function diffCommand(target: Target, opts: { turn?: number; color: boolean }): Promise<string> {
  const { id, dir } = locate(target);
  const fold = replayInto(new RecordFold(), loadRecord(recordFile(dir)));
  const cwd = fold.sessionStart?.cwd || target.cwd;
  return diffTurns(await shadowRepoFor(target.home, cwd, id), fold.archive, opts);
}
