// A session's background jobs in the engine's words (R-JOB-2): each start and end is a record
// line and a `--json` event. Loaded with the first tool batch (core.jobTable), so a run whose
// model starts no job never compiles jobs/.
import { join, relative } from "node:path";
import type { JobInfo } from "../../jobs/job.js";
import { JobTable } from "../../jobs/job-table.js";
import type { NewRecord, RecordLine } from "../../record/types.js";
import type { EngineEvent } from "../door/events.js";

export interface JobRecordPorts {
  dir: string;
  archive: readonly RecordLine[];
  commit(record: NewRecord): unknown;
  publish(event: EngineEvent): void;
}

/** The session's job table, its starts and ends committed and published as they happen. */
export function sessionJobs(ports: JobRecordPorts): JobTable {
  const earlier = ports.archive.flatMap((l) =>
    l.type === "job_start" ? [{ id: l.id, command: l.command }] : [],
  );
  const table = new JobTable({ logDir: join(ports.dir, "jobs"), earlier });
  table.watch({
    onStart(job: JobInfo) {
      ports.commit({
        type: "job_start",
        id: job.id,
        command: job.command,
        pid: job.pid,
        log: relative(ports.dir, job.log),
        tag: job.tag,
      });
      ports.publish({ type: "job_start", id: job.id, command: job.command, pid: job.pid });
    },
    onEnd(job: JobInfo) {
      if (job.state.kind !== "exited") return;
      const { status, reason } = job.state;
      ports.commit({ type: "job_end", id: job.id, status, reason });
      ports.publish({ type: "job_end", id: job.id, status, reason, command: job.command });
    },
  });
  return table;
}
