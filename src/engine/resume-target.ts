// Which session a resume opens: one by id (any workspace's), or this workspace's newest; and the
// model it was last using, so a resume keeps a model switch.
import { RecordFold } from "../record/fold.js";
import { loadRecord } from "../record/load.js";
import { readFreshMeta } from "../record/meta.js";
import { replayInto } from "../record/replay.js";
import { findSession, latestSession, recordFile } from "../record/store.js";
import { SessionNotFoundError } from "./door/errors.js";

export type ResumeTarget = { id: string } | { latest: true };

export function findResumeDir(home: string, cwd: string, target: ResumeTarget): { id: string; dir: string } {
  if ("id" in target) {
    const found = findSession(home, target.id);
    if (!found)
      throw new SessionNotFoundError(
        `no session '${target.id}' (run 'tern sessions' to list this workspace's sessions)`,
      );
    return found;
  }
  const latest = latestSession(home, cwd);
  if (!latest)
    throw new SessionNotFoundError('no session to continue in this workspace (start one with tern run "…")');
  return latest;
}

/** The model a session was last using, so a resume keeps a model switch (R-REC config records). */
export function peekSessionModel(home: string, cwd: string, target: ResumeTarget): string | undefined {
  const { dir } = findResumeDir(home, cwd, target);
  // meta.json follows session_start and config lines, so while it matches the record's size it
  // names the same model; a resume of a long record then parses the record once, not twice.
  const meta = readFreshMeta(dir);
  if (meta?.model) return meta.model;
  return replayInto(new RecordFold(), loadRecord(recordFile(dir))).model;
}
