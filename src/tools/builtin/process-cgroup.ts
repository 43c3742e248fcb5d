// Containment a process cannot shed (§10 amended 2026-12-07: no process outlives its session
// however it detaches). Where this tern may make a cgroup v2 of its own (Linux, a writable
// cgroup2 mount — root, or a delegated systemd scope), every command tern starts (bash calls,
// background jobs, hooks) enters it before it runs anything: `setsid`, a double fork or an
// emptied environment do not take a process out of its cgroup. When the session ends the cgroup
// gets SIGTERM, then `cgroup.kill`; at exit it is killed outright. Elsewhere the process tag scan
// (process-tags.ts) is the fallback. The cgroup is per tern process, as the tag prefix is.
import { spawnSync } from "node:child_process";
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";

export type Containment = "cgroup" | "tag-scan";

const KILL_GRACE_MS = 2000;
const SETTLE_MS = 2000;
/** The wrapper moves itself into the cgroup ($0 names its cgroup.procs), then becomes the command. */
const ENTER = 'echo $$ 2>/dev/null >"$0"; exec "$@"';

let folder: string | null | undefined;
let exitHook = false;

/** Where this tern's cgroup v2 mount is, from mountinfo ("… - cgroup2 cgroup rw"). */
function cgroup2Mount(): string | null {
  let info: string;
  try {
    info = readFileSync("/proc/self/mountinfo", "utf8");
  } catch {
    return null;
  }
  for (const line of info.split("\n")) {
    const [left, right] = line.split(" - ");
    if (right?.startsWith("cgroup2 ")) return left.split(" ")[4];
  }
  return null;
}

/** Whether process `pid` still exists (a pid named in a stale cgroup's folder). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The pids of a cgroup and of its descendants. */
function members(dir: string): number[] {
  const out: number[] = [];
  try {
    for (const line of readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n"))
      if (line) out.push(Number(line));
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) out.push(...members(join(dir, entry.name)));
  } catch {
    // Gone.
  }
  return out;
}

function killAll(dir: string): void {
  try {
    writeFileSync(join(dir, "cgroup.kill"), "1");
  } catch {
    // A kernel before 5.14 has no cgroup.kill: signal each member.
    for (const pid of members(dir))
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
  }
}

/** Removes a cgroup folder and its (empty) children, deepest first. */
function removeTree(dir: string): void {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) removeTree(join(dir, entry.name));
    rmdirSync(dir);
  } catch {
    // Still populated or already gone: a later tern's sweep removes it.
  }
}

/** A tern that was SIGKILLed left its cgroup behind, maybe with processes: end them, remove it. */
function sweepStale(parent: string): void {
  try {
    for (const name of readdirSync(parent)) {
      const m = /^tern-(\d+)$/.exec(name);
      if (!m || Number(m[1]) === process.pid || alive(Number(m[1]))) continue;
      killAll(join(parent, name));
      removeTree(join(parent, name));
    }
  } catch {
    // Not ours to sweep.
  }
}

/** This tern's cgroup folder, made on first use; null where none can be made or entered. */
function cgroupFolder(): string | null {
  if (folder !== undefined) return folder;
  folder = null;
  if (process.platform !== "linux" || process.env.TERN_CONTAINMENT === "tag-scan") return null;
  const mount = cgroup2Mount();
  if (!mount) return null;
  let own: string | undefined;
  try {
    own = readFileSync("/proc/self/cgroup", "utf8")
      .split("\n")
      .find((l) => l.startsWith("0::"))
      ?.slice(3);
  } catch {
    return null;
  }
  if (own === undefined) return null;
  const parent = join(mount, own);
  const dir = join(parent, `tern-${process.pid}`);
  try {
    sweepStale(parent);
    if (!existsSync(dir)) mkdirSync(dir);
    accessSync(join(dir, "cgroup.procs"), constants.W_OK);
    // Writable is not enough (moving needs write access up to the common ancestor): try it once.
    const probe = spawnSync("/bin/sh", ["-c", 'echo $$ >"$0"', join(dir, "cgroup.procs")], {
      stdio: "ignore",
    });
    if (probe.status !== 0) {
      removeTree(dir);
      return null;
    }
  } catch {
    return null;
  }
  folder = dir;
  if (!exitHook) {
    exitHook = true;
    // Whatever way tern exits, what it started goes with it (the kernel delivers the SIGKILL).
    process.on("exit", () => {
      if (!folder) return;
      if (populated(folder)) killAll(folder);
      else removeTree(folder);
    });
  }
  return folder;
}

/** Which mechanism keeps this machine's commands from outliving their session. */
export function containment(): Containment {
  return cgroupFolder() ? "cgroup" : "tag-scan";
}

/** `file args` wrapped so that it enters the cgroup before it runs (unchanged without one). */
export function contained(file: string, args: string[]): { file: string; args: string[] } {
  const dir = cgroupFolder();
  if (!dir) return { file, args };
  return { file: "/bin/sh", args: ["-c", ENTER, join(dir, "cgroup.procs"), file, ...args] };
}

/** Whether anything tern started is still in its cgroup. */
function populated(dir: string): boolean {
  try {
    return /populated 1/.test(readFileSync(join(dir, "cgroup.events"), "utf8"));
  } catch {
    return false;
  }
}

/**
 * Ends everything in the cgroup, however it detached: SIGTERM, `cgroup.kill` after the grace
 * time; resolves once the cgroup is empty (or the settle time is over).
 */
export async function stopContained(): Promise<void> {
  const dir = folder;
  if (!dir) return;
  if (populated(dir)) await endMembers(dir);
  if (!populated(dir)) {
    // The next session of this process (the library) makes it again.
    removeTree(dir);
    folder = undefined;
  }
}

async function endMembers(dir: string): Promise<void> {
  for (const pid of members(dir))
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  const deadline = performance.now() + KILL_GRACE_MS;
  while (performance.now() < deadline && populated(dir)) await new Promise((r) => setTimeout(r, 50));
  if (populated(dir)) killAll(dir);
  const settled = performance.now() + SETTLE_MS;
  while (performance.now() < settled && populated(dir)) await new Promise((r) => setTimeout(r, 20));
}
