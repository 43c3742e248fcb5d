// What a resumed session's record says about its background jobs (R-JOB-2): which ended with
// the last run, and which a crash left running (stopped now). Knows the record only; the live
// table is engine/jobs/, loaded with the first tool batch.
import type { NewRecord, RecordLine } from "../record/types.js";
import { stopTaggedProcesses } from "../tools/builtin/index.js";

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
  for (const [id, tag] of open) {
    // Through the tools' lazy door: a resume without such jobs never compiles the process code.
    if (tag) await stopTaggedProcesses(tag);
    commit({ type: "job_end", id, status: "unknown", reason: "session_ended" });
  }
}
