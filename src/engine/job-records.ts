// A session's background jobs in the engine's words (R-JOB-2): each start and end is a record
// line and a `--json` event; a resumed session names the jobs that ended with its last run.
import { join, relative } from "node:path";
import type { JobInfo } from "../jobs/job.js";
import { JobTable } from "../jobs/job-table.js";
import type { NewRecord, RecordLine } from "../record/types.js";
import type { EngineEvent } from "./events.js";

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

/**
 * The resume notice: jobs the record's last run had running when it ended (stopped with it, or
 * cut off by a crash with no job_end written). Undefined when there were none.
 */
export function endedWithLastRun(archive: readonly RecordLine[]): string | undefined {
  const commands = new Map<string, string>();
  const open = new Map<string, string>();
  // The last run's own session_ended lines are the record's last lines (written as it closed).
  let lastRun = new Map<string, string>();
  let trailing = false;
  for (const line of archive) {
    if (line.type === "job_start") {
      commands.set(line.id, line.command);
      open.set(line.id, line.command);
    } else if (line.type === "job_end") {
      open.delete(line.id);
      if (line.reason !== "session_ended") continue;
      if (!trailing) lastRun = new Map();
      trailing = true;
      lastRun.set(line.id, commands.get(line.id) ?? "");
      continue;
    }
    trailing = false;
  }
  if (!trailing) lastRun = new Map();
  for (const [id, command] of open) lastRun.set(id, command);
  if (lastRun.size === 0) return undefined;
  const names = [...lastRun].map(
    ([id, command]) => `${id} (${command.length > 60 ? `${command.slice(0, 60)}…` : command})`,
  );
  return `background jobs that ended with the last run: ${names.join(", ")}; start them again if they are needed`;
}

/**
 * The jobs a crash (tern killed outright) left without a job_end: whatever of them still runs,
 * found by its process tag, is stopped now, and each gets its job_end (R-JOB-2).
 */
export async function endUnendedJobs(
  archive: readonly RecordLine[],
  commit: (r: NewRecord) => void,
): Promise<void> {
  const open = new Map<string, string | undefined>();
  for (const line of archive)
    if (line.type === "job_start") open.set(line.id, line.tag);
    else if (line.type === "job_end") open.delete(line.id);
  if (open.size === 0) return;
  // Loaded only here: a resume without such jobs never compiles the process code.
  const { stopTagged } = await import("../tools/builtin/process-groups.js");
  for (const [id, tag] of open) {
    if (tag) await stopTagged(tag);
    commit({ type: "job_end", id, status: "unknown", reason: "session_ended" });
  }
}
