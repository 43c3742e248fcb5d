// R-REC (amended 2026-12-07): resuming a parent closes and bills its children's open turns. A
// crash while a sub-agent runs leaves the child's record with a turn nobody will resume (people
// resume their own session, not the child's): the parent's resume closes it the way a resume of
// the child would (interrupted results, an `aborted` turn_end priced like any other, the unbilled
// attempts billed), depth first, and writes the child's ledger rows (R-REC-8).
import type { Config, ResolvedModel } from "../config/types.js";
import { billOf } from "../record/bill.js";
import { RecordFold } from "../record/fold.js";
import { loadRecord } from "../record/load.js";
import { recoverOnLoad } from "../record/quiesce.js";
import { replayInto } from "../record/replay.js";
import { listSessions, openSessionWriter, recordFile, type SessionSummary } from "../record/store.js";
import type { RecordLine } from "../record/types.js";
import { readUnbilled, removeUnbilled } from "../record/unbilled.js";
import { commitChecked } from "./commit.js";
import { endUnendedJobs } from "./job-records.js";
import { priceFor, writeLedgerRows } from "./ledger-write.js";

export interface ChildRecoveryOptions {
  home: string;
  cwd: string;
  config: Config;
  model: ResolvedModel;
  warn(text: string): void;
}

/** Whether a record ever started a sub-agent (only then are its children looked for). */
function startedTasks(archive: readonly RecordLine[]): boolean {
  return archive.some((l) => l.type === "assistant_message" && l.toolCalls.some((c) => c.name === "task"));
}

/** Closes and bills the open turns of `parentId`'s sub-agent sessions (and theirs). */
export async function closeChildrenTurns(
  parentId: string,
  archive: readonly RecordLine[],
  opts: ChildRecoveryOptions,
): Promise<void> {
  if (!startedTasks(archive)) return;
  const sessions = listSessions(opts.home, opts.cwd);
  await closeUnder(parentId, sessions, opts, new Set([parentId]));
}

async function closeUnder(
  parentId: string,
  sessions: readonly SessionSummary[],
  opts: ChildRecoveryOptions,
  seen: Set<string>,
): Promise<void> {
  for (const child of sessions) {
    if (child.error || child.parent?.session !== parentId || !child.parent.call || seen.has(child.id))
      continue;
    seen.add(child.id);
    await closeUnder(child.id, sessions, opts, seen);
    try {
      await closeOne(child, opts);
    } catch (err) {
      // Held by a live tern, or unreadable: its own resume will close it.
      opts.warn(
        `sub-agent session ${child.id} not closed: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
}

async function closeOne(child: SessionSummary, opts: ChildRecoveryOptions): Promise<void> {
  const loaded = loadRecord(recordFile(child.dir));
  const fold = new RecordFold();
  replayInto(fold, loaded);
  const unbilled = readUnbilled(child.dir);
  const ended = new Set(loaded.lines.flatMap((l) => (l.type === "job_end" ? [l.id] : [])));
  const jobsOpen = loaded.lines.some((l) => l.type === "job_start" && !ended.has(l.id));
  if (!fold.openTurn && !unbilled && !jobsOpen) return;
  const writer = openSessionWriter(child.dir, { lines: loaded.lines });
  try {
    await endUnendedJobs(fold.archive, (record) => commitChecked(fold, writer, record));
    for (const record of recoverOnLoad(fold, { cost: priceFor(opts.config, opts.model), unbilled }))
      commitChecked(fold, writer, record);
    removeUnbilled(child.dir);
  } finally {
    writer.close();
  }
  if (billOf(fold.archive).length > 0) writeLedgerRows(opts.home, child.id, fold.archive, opts.warn);
}
