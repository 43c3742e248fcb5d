// One background job (R-JOB-1): a shell command's process group that outlives its tool call but
// not its session. Output goes to a ring buffer (bounded memory, job_output reads what is new)
// and to a log file under the session folder (the full output, redacted as it is written).
import type { ChildProcess } from "node:child_process";
import { closeSync, openSync, writeSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { OutputRing } from "./output-ring.js";
import { type BoundedPattern, PatternError } from "./pattern.js";

/** Characters of output a job holds in memory (2 MB at most as UTF-16). */
export const RING_CHARS = 1_000_000;
/** After the shell exits, a child it left may still hold the pipe: read this long, no more. */
const PIPE_DRAIN_MS = 200;
/** A line longer than this is not rescanned whole for `wait_for` on every chunk. */
const RESCAN_CHARS = 64 * 1024;

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
  state: JobState;
  /** Where the full output is kept. */
  log: string;
}

export interface JobRead {
  text: string;
  /** Characters since the last read that memory no longer holds (they are in the log). */
  dropped: number;
  state: JobState;
  /** Why the wait ended: `match`, `exit`, `timeout`, `cancelled`, or `none` (no wait). */
  waited: "match" | "exit" | "timeout" | "cancelled" | "none";
}

export interface JobProcess {
  child: ChildProcess;
  /** Ends the process group (SIGTERM, SIGKILL after 2 s); resolves when it is gone. */
  stop(): Promise<void>;
}

export function stateText(state: JobState): string {
  return state.kind === "running" ? "running" : `exited ${state.status}`;
}

export class Job {
  private readonly ring = new OutputRing(RING_CHARS);
  private cursor = 0;
  private logFd: number | null;
  private _state: JobState = { kind: "running" };
  private endReason: JobEndReason = "exited";
  private readonly changed = new Set<() => void>();
  private stopping: Promise<void> | undefined;
  readonly ended: Promise<void>;

  constructor(
    readonly id: string,
    readonly command: string,
    private readonly proc: JobProcess,
    readonly log: string,
    redact: (text: string) => string,
  ) {
    this.logFd = openLog(log);
    const decoder = new StringDecoder("utf8");
    const take = (b: Buffer) => {
      const text = decoder.write(b);
      this.ring.push(text);
      if (this.logFd !== null && text) writeSync(this.logFd, redact(text));
      this.notify();
    };
    const { child } = proc;
    child.stdout?.on("data", take);
    child.stderr?.on("data", take);
    // A write into a stdin the job closed fails here too; job_input reports it from its callback.
    child.stdin?.on("error", () => {});
    this.ended = new Promise((resolve) => {
      let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        child.stdout?.destroy();
        child.stderr?.destroy();
        child.stdin?.destroy();
        const status = exit?.signal ?? exit?.code ?? "unknown";
        this._state = { kind: "exited", status, reason: this.endReason };
        if (this.logFd !== null) closeSync(this.logFd);
        this.logFd = null;
        this.notify();
        resolve();
      };
      child.on("exit", (code, signal) => {
        exit = { code, signal };
        setTimeout(finish, PIPE_DRAIN_MS);
      });
      child.on("close", finish);
      child.on("error", finish);
    });
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
    return { id: this.id, command: this.command, pid: this.pid, state: this._state, log: this.log };
  }
  lastLines(n: number): string[] {
    return this.ring.lastLines(n);
  }

  /** Resolves true once there is unread output or the job has ended, false after `ms` without. */
  nextOutput(ms: number): Promise<boolean> {
    const ready = () => this.ring.end > this.cursor || !this.running;
    if (ready()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = () => {
        if (!ready()) return;
        clearTimeout(timer);
        this.changed.delete(check);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.changed.delete(check);
        resolve(false);
      }, ms);
      this.changed.add(check);
    });
  }

  /** Ends the job's process group; `reason` is what its job_end will say. */
  stop(reason: Exclude<JobEndReason, "exited">): Promise<void> {
    if (this.running && !this.stopping) {
      this.endReason = reason;
      this.stopping = this.proc.stop();
    }
    return Promise.all([this.stopping, this.ended]).then(() => undefined);
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
    const waited = await this.waitFor(pattern, timeoutMs, signal);
    const { text, dropped } = this.ring.since(this.cursor);
    this.cursor = this.ring.end;
    return { text, dropped, state: this._state, waited };
  }

  /**
   * The output so far without marking it read: the start's result shows it, and a `wait_for`
   * that follows still sees the line the model is waiting for.
   */
  peek(): JobRead {
    return { ...this.ring.since(this.cursor), state: this._state, waited: "none" };
  }

  private waitFor(
    pattern: BoundedPattern | undefined,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<JobRead["waited"]> {
    let scanFrom = this.cursor;
    const matched = () => {
      if (!pattern) return false;
      const { text } = this.ring.since(scanFrom);
      if (text !== "" && pattern.test(text)) return true;
      // Next time, rescan only the line still being written (bounded), not what was tested.
      const lastBreak = text.lastIndexOf("\n");
      const partial = text.length - (lastBreak + 1);
      scanFrom = this.ring.end - Math.min(partial, RESCAN_CHARS);
      return false;
    };
    if (matched()) return Promise.resolve("match");
    if (!this.running) return Promise.resolve("exit");
    if (timeoutMs <= 0) return Promise.resolve(pattern ? "timeout" : "none");
    if (signal.aborted) return Promise.resolve("cancelled");
    return new Promise((resolve, reject) => {
      const done = (why: JobRead["waited"] | Error) => {
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.changed.delete(check);
        if (why instanceof Error) reject(why);
        else resolve(why);
      };
      const check = () => {
        try {
          if (matched()) done("match");
          else if (!this.running) done("exit");
        } catch (err) {
          done(err instanceof PatternError ? err : new PatternError(String(err)));
        }
      };
      const onAbort = () => done("cancelled");
      const timer = setTimeout(() => done("timeout"), timeoutMs);
      signal.addEventListener("abort", onAbort, { once: true });
      this.changed.add(check);
    });
  }

  private notify(): void {
    for (const listener of [...this.changed]) listener();
  }
}

function openLog(path: string): number | null {
  try {
    return openSync(path, "a", 0o600);
  } catch {
    return null;
  }
}
