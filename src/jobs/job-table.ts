// A session's background jobs (R-JOB-1/-2): ids `job-1`, `job-2`, … (continuing after the jobs a
// resumed record names), each with its log under the session folder; start and end reported to
// the engine (record lines and events), and `endAll` — every job's process group stopped —
// before the session may close or clear.
import { closeSync, mkdirSync, openSync } from "node:fs";
import { join } from "node:path";
import { Job, type JobInfo, type JobProcess } from "./job.js";
import { CappedLog, type LogCaps, LogBudget } from "./log-writer.js";

export interface JobTableInit {
  /** Folder of the jobs' logs (under the session folder). */
  logDir: string;
  /** Jobs a previous run of this session started (from its record): their ids are not reused. */
  earlier?: readonly { id: string; command: string }[];
  /** Bytes kept per job log and for all of them (config `jobs.logMaxBytes`, `jobs.sessionLogMaxBytes`). */
  caps?: LogCaps;
}

/** Config's defaults, for a table made without caps. */
const DEFAULT_CAPS: LogCaps = { jobBytes: 8 * 1024 * 1024, sessionBytes: 64 * 1024 * 1024 };

export interface JobListener {
  onStart(job: JobInfo): void;
  onEnd(job: JobInfo): void;
}

/** A job about to start: its id and the log its output goes into. */
export interface JobSlot {
  id: string;
  path: string;
  /** Where tern appends the job's (redacted) output. */
  log: CappedLog;
  readFd: number;
}

export class JobTable {
  private readonly jobs = new Map<string, Job>();
  private readonly earlier: Map<string, string>;
  private readonly listeners = new Set<JobListener>();
  private next: number;
  private readonly budget: LogBudget;

  constructor(private readonly init: JobTableInit) {
    this.earlier = new Map((init.earlier ?? []).map((j) => [j.id, j.command]));
    const numbers = [...this.earlier.keys()].map((id) => Number(/^job-(\d+)$/.exec(id)?.[1] ?? 0));
    this.next = Math.max(0, ...numbers) + 1;
    this.budget = new LogBudget(init.caps ?? DEFAULT_CAPS);
  }

  watch(listener: JobListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The next job's id and log, opened for tern to write (within the caps) and to read. */
  open(): JobSlot {
    const id = `job-${this.next++}`;
    mkdirSync(this.init.logDir, { recursive: true, mode: 0o700 });
    const path = join(this.init.logDir, `${id}.log`);
    const log = new CappedLog(openSync(path, "w+", 0o600), this.budget);
    return { id, path, log, readFd: openSync(path, "r") };
  }

  /** A slot whose spawn failed: its descriptors are closed. */
  abandon(slot: JobSlot): void {
    slot.log.close();
    closeQuietly(slot.readFd);
  }

  /** Registers the started process of `slot` as a job. */
  add(slot: JobSlot, command: string, proc: JobProcess): Job {
    const { log } = slot;
    const job = new Job(slot.id, command, proc, {
      path: slot.path,
      readFd: slot.readFd,
      dropped: () => log.dropped,
      closeWriter: () => log.close(),
    });
    this.jobs.set(slot.id, job);
    for (const l of this.listeners) l.onStart(job.info());
    void job.ended.then(() => {
      for (const l of this.listeners) l.onEnd(job.info());
    });
    return job;
  }

  /** The job, or the error text for the model when there is none by that id. */
  find(id: string): Job | string {
    const job = this.jobs.get(id);
    if (job) return job;
    const command = this.earlier.get(id);
    if (command !== undefined)
      return `${id} (${command}) ended with the last run of this session; start it again if it is needed`;
    const known = [...this.jobs.keys()];
    return `no job ${JSON.stringify(id.slice(0, 60))}; ${known.length ? `jobs: ${known.join(", ")}` : "no job was started in this session"}`;
  }

  list(): Job[] {
    return [...this.jobs.values()];
  }

  /** R-JOB-2: every running job's group ended (SIGTERM, SIGKILL after 2 s); resolves when all are gone. */
  async endAll(): Promise<void> {
    await Promise.all(this.list().map((j) => (j.running ? j.stop("session_ended") : j.ended)));
  }

  /** The session closes: every job ended, every log's read descriptor closed. */
  async close(): Promise<void> {
    await this.endAll();
    for (const job of this.list()) job.close();
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Already closed.
  }
}
