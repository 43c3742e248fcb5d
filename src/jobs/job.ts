// One background job (R-JOB-1): a shell command's process group that outlives its tool call but
// not its session. Its stdout and stderr go into a log file under the session folder (redacted,
// its newest part within the caps, log-writer.ts; tern holds none of it in memory), which
// job_output reads from a cursor: what is new since the last read, head and tail when long, and
// how much older output the caps dropped before it was read.
import type { ChildProcess } from "node:child_process";
import { closeSync } from "node:fs";
import { LogReader } from "./log-reader.js";
import { type BoundedPattern, PatternError } from "./pattern.js";

/**
 * Bytes one read returns at most, head and tail of the new output (the middle stays in the log):
 * under the default toolOutputLimit, so the model reads the job's own note on where the rest is.
 */
export const READ_BYTES = 24_000;
/** After the stop's escalation, how long the exit event may take. */
const EXIT_EVENT_MS = 1000;
/** How often a waiting read looks at the log for new output. */
const POLL_MS = 50;
/** After the job's shell exits, how long its last output may take to reach the log. */
const DRAIN_MS = 200;

/** Why a job ended: on its own, by `job_kill` (or `/jobs`), or with its session (R-JOB-2). */
export type JobEndReason = "exited" | "killed" | "session_ended";

export type JobState =
  | { kind: "running" }
  /** `status`: the exit code, or the name of the signal that ended it. */
  | { kind: "exited"; status: number | string; reason: JobEndReason };

export interface JobInfo {
  id: string;
  command: string;
  pid: number;
  tag: string;
  state: JobState;
  /** Where the output is kept (its newest part, within the caps). */
  log: string;
  /** Bytes of its oldest output the log's caps dropped. */
  dropped?: number;
}

export interface JobRead {
  /** The new output (its head, when `elided` > 0). */
  text: string;
  /** Bytes of the new output left out between `text` and `tail` (they are in the log). */
  elided: number;
  tail: string;
  /** Bytes of output the log's caps dropped before they were read. */
  dropped: number;
  state: JobState;
  /** Why the wait ended: `match`, `exit`, `timeout`, `cancelled`, or `none` (no wait). */
  waited: "match" | "exit" | "timeout" | "cancelled" | "none";
}

export interface JobProcess {
  child: ChildProcess;
  /** The process tag its processes carry (TERN_TOOL_PROCESS): a later tern can find them by it. */
  tag: string;
  /** Ends the process group (SIGTERM, SIGKILL after 2 s); resolves when it is gone. */
  stop(): Promise<void>;
  /** Resolves once the output pipes are read to their end (a job whose output tern copies). */
  drained?: Promise<void>;
}

/** The log a job writes into: its path, and a descriptor tern reads it through. */
export interface JobLog {
  path: string;
  readFd: number;
  /** Bytes of output dropped from the front of the log by its caps. */
  dropped?: () => number;
  /** Closes what writes the log (once the job has ended). */
  closeWriter?: () => void;
}

export function stateText(state: JobState): string {
  return state.kind === "running" ? "running" : `exited ${state.status}`;
}

export class Job {
  private readonly reader: LogReader;
  private cursor = 0;
  private _state: JobState = { kind: "running" };
  private endReason: JobEndReason = "exited";
  private readonly exitListeners = new Set<() => void>();
  private stopping: Promise<void> | undefined;
  readonly ended: Promise<void>;

  constructor(
    readonly id: string,
    readonly command: string,
    private readonly proc: JobProcess,
    private readonly logFile: JobLog,
  ) {
    this.reader = new LogReader(logFile.readFd, logFile.dropped);
    const { child } = proc;
    // A write into a stdin the job closed fails here too; job_input reports it from its callback.
    child.stdin?.on("error", () => {});
    this.ended = new Promise((resolve) => {
      const finish = (status: number | string) => {
        if (this._state.kind !== "running") return;
        child.stdin?.destroy();
        this._state = { kind: "exited", status, reason: this.endReason };
        for (const listener of [...this.exitListeners]) listener();
        resolve();
      };
      // The last output reaches the log before the job reads as ended (unless a child it left
      // behind keeps the pipes open).
      const drained = (status: number | string) =>
        Promise.race([proc.drained, new Promise((r) => setTimeout(r, DRAIN_MS))]).then(() => finish(status));
      child.on("exit", (code, signal) =>
        proc.drained ? void drained(signal ?? code ?? "unknown") : finish(signal ?? code ?? "unknown"),
      );
      child.on("error", () => finish("unknown"));
    });
  }

  get log(): string {
    return this.logFile.path;
  }
  get pid(): number {
    return this.proc.child.pid ?? 0;
  }
  get state(): JobState {
    return this._state;
  }
  get running(): boolean {
    return this._state.kind === "running";
  }
  info(): JobInfo {
    const { id, command, pid, log } = this;
    const dropped = this.reader.dropped();
    return {
      id,
      command,
      pid,
      tag: this.proc.tag,
      state: this._state,
      log,
      ...(dropped > 0 ? { dropped } : {}),
    };
  }
  lastLines(n: number): string[] {
    return this.reader.lastLines(n);
  }

  /** Once the session is done with the job: the log's read descriptor is closed. */
  close(): void {
    this.logFile.closeWriter?.();
    try {
      closeSync(this.logFile.readFd);
    } catch {
      // Already closed.
    }
  }

  /** Resolves true once there is unread output or the job has ended, false after `ms` without. */
  nextOutput(ms: number): Promise<boolean> {
    return this.until(() => this.reader.size() > this.cursor, ms).then((why) => why !== "timeout");
  }

  /** Ends the job's process group; `reason` is what its job_end will say. */
  stop(reason: Exclude<JobEndReason, "exited">): Promise<void> {
    if (this.running && !this.stopping) {
      this.endReason = reason;
      this.stopping = this.proc.stop();
    }
    // A process the kernel cannot end at once (stuck in a device wait) must not hold tern open
    // forever: once the group has had its SIGKILL, the exit event gets a moment, no more.
    return (this.stopping ?? Promise.resolve()).then(() =>
      Promise.race([this.ended, new Promise<void>((r) => setTimeout(r, EXIT_EVENT_MS).unref())]),
    );
  }

  /** Writes to the job's stdin; the error text when it cannot take input. */
  write(text: string): Promise<string | null> {
    const stdin = this.proc.child.stdin;
    if (!this.running)
      return Promise.resolve(`${this.id} has ${stateText(this._state)}: its stdin is closed`);
    if (!stdin || stdin.destroyed || stdin.writableEnded)
      return Promise.resolve(`${this.id}'s stdin is closed (the job no longer reads input)`);
    return new Promise((resolve) =>
      stdin.write(text, (err) =>
        resolve(err ? `${this.id}'s stdin is closed (the job no longer reads input): ${err.message}` : null),
      ),
    );
  }

  /**
   * The output since the last read, after waiting (up to `timeoutMs`) for the new output to match
   * `pattern`, or for the job to exit. Throws PatternError when the pattern runs too long.
   */
  async read(pattern: BoundedPattern | undefined, timeoutMs: number, signal: AbortSignal): Promise<JobRead> {
    let waited: JobRead["waited"] = "none";
    if (pattern) {
      const scan = this.reader.scan(this.cursor);
      waited = await this.until(() => scan.advance((text) => pattern.test(text)), timeoutMs, signal);
    } else if (timeoutMs > 0) waited = await this.until(() => false, timeoutMs, signal);
    return this.unread(waited, true);
  }

  /**
   * The output so far without marking it read: the start's result shows it, and a `wait_for`
   * that follows still sees the line the model is waiting for.
   */
  peek(): JobRead {
    return this.unread("none", false);
  }

  /** The new output, head and tail when it is longer than a read returns; `advance` marks it read. */
  private unread(waited: JobRead["waited"], advance: boolean): JobRead {
    const end = this.reader.size();
    const dropped = Math.max(0, this.reader.dropped() - this.cursor);
    const from = this.cursor + dropped;
    if (advance) this.cursor = end;
    const state = this._state;
    if (end - from <= READ_BYTES)
      return { text: this.reader.text(from, end), elided: 0, tail: "", dropped, state, waited };
    const half = READ_BYTES / 2;
    return {
      text: this.reader.text(from, from + half),
      elided: end - from - READ_BYTES,
      tail: this.reader.text(end - half, end),
      dropped,
      state,
      waited,
    };
  }

  /** Waits until `ready` holds (polled), the job exits, `ms` pass, or `signal` aborts. */
  private until(ready: () => boolean, ms: number, signal?: AbortSignal): Promise<JobRead["waited"]> {
    return new Promise((resolve, reject) => {
      const done = (why: JobRead["waited"] | Error) => {
        clearTimeout(timer);
        clearInterval(poll);
        signal?.removeEventListener("abort", onAbort);
        this.exitListeners.delete(onExit);
        if (why instanceof Error) reject(why);
        else resolve(why);
      };
      const check = () => {
        try {
          if (ready()) done("match");
          else if (!this.running) done("exit");
          else return false;
        } catch (err) {
          done(err instanceof PatternError ? err : new PatternError(String(err)));
        }
        return true;
      };
      const onAbort = () => done("cancelled");
      const onExit = () => check();
      let timer: NodeJS.Timeout | undefined;
      let poll: NodeJS.Timeout | undefined;
      if (check()) return;
      if (ms <= 0) return done("timeout");
      if (signal?.aborted) return done("cancelled");
      timer = setTimeout(() => done("timeout"), ms);
      poll = setInterval(check, POLL_MS);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.exitListeners.add(onExit);
    });
  }
}
