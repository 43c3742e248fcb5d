// R-REC-9: one writer per session. The lock is a file beside the record holding the writer's
// pid, created exclusively; a second tern on the same session is refused before it writes
// anything. A lock whose process is gone (a crash, SIGKILL) is taken over. PIDs are reused
// (after a reboot, and in a restarted container, where tern often gets the same small pid
// again), so the lock also names the boot and the process's start time where the system tells
// them (/proc): a live pid that started at another time, or a lock from another boot, is stale.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { rethrowAsDisk } from "./errors.js";

export const LOCK_FILE = "lock";

export class SessionLockedError extends Error {
  constructor(
    readonly sessionId: string,
    readonly pid: number,
  ) {
    super(
      pid === process.pid
        ? `session ${sessionId} is already open in this tern`
        : `session ${sessionId} is in use by another tern (pid ${pid}); wait for it to finish or stop it`,
    );
    this.name = "SessionLockedError";
  }
}

export interface SessionLock {
  release(): void;
}

/** Lock files this process holds: its own pid in any other lock is a leftover of an earlier life. */
const held = new Set<string>();

interface Holder {
  pid: number;
  start?: string;
  boot?: string;
}

function readOr(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** /proc/<pid>/stat after "pid (comm) ", split: [0] the state, [19] the start time (field 22). */
function statFields(pid: number): string[] | undefined {
  const stat = readOr(`/proc/${pid}/stat`);
  return stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** The process's start time in clock ticks after boot. */
const startTime = (pid: number) => statFields(pid)?.[19];

const bootId = () => readOr("/proc/sys/kernel/random/boot_id")?.trim();

function isAlive(holder: Holder, file: string): boolean {
  const { pid } = holder;
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return held.has(file);
  const boot = bootId();
  if (holder.boot && boot && holder.boot !== boot) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it exists but belongs to someone else, which still means alive.
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  const fields = statFields(pid);
  // A killed tern lingers as a zombie until its parent reaps it (forever, under a PID 1 that
  // never does): it holds nothing and writes nothing.
  if (fields?.[0] === "Z" || fields?.[0] === "X") return false;
  const start = holder.start ? fields?.[19] : undefined;
  return !(start && start !== holder.start);
}

function readHolder(file: string): Holder | undefined {
  const text = readOr(file);
  if (text === undefined) return undefined;
  const [pid, ...fields] = text.trim().split(/\s+/);
  const holder: Holder = { pid: Number.parseInt(pid, 10) };
  for (const f of fields) {
    if (f.startsWith("start=")) holder.start = f.slice(6);
    else if (f.startsWith("boot=")) holder.boot = f.slice(5);
  }
  return holder;
}

function lockText(): string {
  const start = startTime(process.pid);
  const boot = bootId();
  return `${process.pid}${start ? ` start=${start}` : ""}${boot ? ` boot=${boot}` : ""}\n`;
}

/** Takes the session's lock or throws SessionLockedError naming the live holder. */
export function lockSession(dir: string, sessionId: string): SessionLock {
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 10; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") rethrowAsDisk(err, file);
      const holder = readHolder(file);
      const pid = holder?.pid;
      // Another tern may be between creating the file and writing its pid: give it a moment.
      if (pid === undefined || Number.isNaN(pid)) {
        if (attempt < 5) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
          continue;
        }
      } else if (isAlive(holder!, file)) throw new SessionLockedError(sessionId, pid);
      // Stale: its process is gone. Remove it only if it still names that process.
      const now = readHolder(file)?.pid;
      if (now === pid || pid === undefined || Number.isNaN(pid)) {
        try {
          unlinkSync(file);
        } catch {}
      }
      continue;
    }
    try {
      writeSync(fd, lockText());
    } catch (err) {
      // An empty lock would stall the next tern: no lock file at all, and the disk named.
      closeSync(fd);
      unlinkSync(file);
      rethrowAsDisk(err, file);
    }
    closeSync(fd);
    held.add(file);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        held.delete(file);
        if (readHolder(file)?.pid === process.pid) {
          try {
            unlinkSync(file);
          } catch {}
        }
      },
    };
  }
  throw new SessionLockedError(sessionId, readHolder(file)?.pid ?? 0);
}

/**
 * Whether a live tern holds the session in `dir` (a half-written lock counts as held: its
 * writer is between creating the file and writing its pid). No lock file: nobody holds it.
 */
export function sessionHeld(dir: string): boolean {
  const file = join(dir, LOCK_FILE);
  const holder = readHolder(file);
  if (holder === undefined) return false;
  return Number.isNaN(holder.pid) || isAlive(holder, file);
}
