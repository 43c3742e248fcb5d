// A session's record, opened: a new one, or a resumed one rebuilt by replaying its lines
// (R-REC-1), with what a crash left open closed first (R-REC-3): the turn it cut off priced and
// billed, its jobs ended (R-JOB-2), its sub-agents' turns closed, cleared images pruned.
import type { Config, ResolvedModel } from "../config/types.js";
import { pruneClearedImages } from "../record/attachments.js";
import { RecordFold } from "../record/fold.js";
import { loadRecord } from "../record/load.js";
import { recoverOnLoad } from "../record/quiesce.js";
import { replayInto } from "../record/replay.js";
import { createSession, openSessionWriter, recordFile } from "../record/store.js";
import { readUnbilled, removeUnbilled } from "../record/unbilled.js";
import type { RecordWriter } from "../record/writer.js";
import { closeChildrenTurns } from "./child-recovery.js";
import { commitChecked } from "./commit.js";
import { endedWithLastRun, endUnendedJobs } from "./job-records.js";
import { priceFor } from "./ledger-write.js";
import { findResumeDir, type ResumeTarget } from "./resume-target.js";
import type { ChildOptions } from "./subagents/child-options.js";

export interface RecordOpening {
  home: string;
  cwd: string;
  config: Config;
  model: ResolvedModel;
  resume?: ResumeTarget;
  child?: ChildOptions;
}

export interface OpenedRecord {
  id: string;
  dir: string;
  writer: RecordWriter;
  fold: RecordFold;
}

/** Opens (or creates) the record; what a resume has to say goes to `warnings`. */
export async function openRecord(opts: RecordOpening, warnings: string[]): Promise<OpenedRecord> {
  const { home, cwd, config, model } = opts;
  const fold = new RecordFold();
  let writer: RecordWriter;
  let id: string;
  let dir: string;
  if (opts.resume) {
    ({ id, dir } = findResumeDir(home, cwd, opts.resume));
    const loaded = loadRecord(recordFile(dir));
    warnings.push(...loaded.warnings);
    replayInto(fold, loaded);
    writer = openSessionWriter(dir, { lines: loaded.lines });
    // A crash between creating the folder and the first line leaves an empty record: it gets
    // the session_start every record begins with before anything else is written.
    if (fold.archive.length === 0)
      commitChecked(fold, writer, { type: "session_start", id, cwd, model: model.id });
    // Jobs do not outlive their run (R-JOB-2): the resume says which ended with it, and closes
    // the ones a crash left without a job_end.
    const jobsNote = endedWithLastRun(fold.archive);
    if (jobsNote) warnings.push(jobsNote);
    await endUnendedJobs(fold.archive, (record) => commitChecked(fold, writer, record));
    // A turn a crash cut off is closed `aborted`, priced like any other, and billed now.
    for (const record of recoverOnLoad(fold, { cost: priceFor(config, model), unbilled: readUnbilled(dir) }))
      commitChecked(fold, writer, record);
    removeUnbilled(dir);
    // R-REC (amended): the sub-agents a crash cut off are closed and billed with their parent.
    if (!opts.child)
      await closeChildrenTurns(id, fold.archive, { home, cwd, config, model, warn: (t) => warnings.push(t) });
    // A crash between `cleared` and the image deletion must not keep the cleared images forever.
    pruneClearedImages(dir, fold.archive);
  } else {
    const created = createSession(home, { cwd, model: model.id, parent: opts.child?.link });
    ({ id, dir, writer } = created);
    replayInto(fold, loadRecord(recordFile(dir)));
  }

  return { id, dir, writer, fold };
}
