// R-REC-9: one writer per session. The lock is a file beside the record holding the writer's
// pid, created exclusively; a second tern on the same session is refused before it writes
// anything. A lock whose process is gone (a crash, SIGKILL) is taken over.
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

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

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else, which still means alive.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

function readHolder(file: string): number | undefined {
  try {
    return Number.parseInt(readFileSync(file, "utf8").trim(), 10);
  } catch {
    return undefined;
  }
}

/** Takes the session's lock or throws SessionLockedError naming the live holder. */
export function lockSession(dir: string, sessionId: string): SessionLock {
  const file = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 10; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, "wx", 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const holder = readHolder(file);
      // Another tern may be between creating the file and writing its pid: give it a moment.
      if (holder === undefined || Number.isNaN(holder)) {
        if (attempt < 5) {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
          continue;
        }
      } else if (isAlive(holder)) throw new SessionLockedError(sessionId, holder);
      // Stale: its process is gone. Remove it only if it still names that process.
      if (readHolder(file) === holder || holder === undefined || Number.isNaN(holder)) {
        try {
          unlinkSync(file);
        } catch {}
      }
      continue;
    }
    writeSync(fd, `${process.pid}\n`);
    closeSync(fd);
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        if (readHolder(file) === process.pid) {
          try {
            unlinkSync(file);
          } catch {}
        }
      },
    };
  }
  throw new SessionLockedError(sessionId, readHolder(file) ?? 0);
}
