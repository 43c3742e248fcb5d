// The one way tern starts a shell command (R-BASH-1, R-SBX, R-JOB-1): `bash -c` in its own
// process group, inside the OS sandbox when there is one, in the scrubbed environment with the
// process tag; and the one way it stops one (SIGTERM to the group, SIGKILL after 2 s, strays
// found by their tag). `bash` calls and background jobs both go through here.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import type { Writable } from "node:stream";
import { defaultConfig } from "../../config/defaults.js";
import { scrubbedEnv } from "../../config/secrets.js";
import { holdPlaceholders } from "../../sandbox/placeholders.js";
import type { ShellSandbox } from "../types.js";
import { contained, stopContained } from "./process-cgroup.js";
import { newCallTag, ownTagPrefix, signalAll, TAG_VAR, taggedPids } from "./process-tags.js";
import { shellProgram } from "../../programs/program-path.js";

const KILL_GRACE_MS = 2000;
/** How long tern waits for SIGKILLed processes to be gone before it may exit. */
const KILL_SETTLE_MS = 2000;

export interface ShellProcess {
  child: ChildProcess;
  /** The call's process tag (TERN_TOOL_PROCESS). */
  tag: string;
}

/** Where a command's input comes from and its output goes (default: no input, a pipe). */
export interface ShellStdio {
  stdin?: "ignore" | "pipe";
  /** A file descriptor both stdout and stderr write into (a background job's log). */
  output?: number;
}

/**
 * Starts `command` under `bash -c`, stdout and stderr in one pipe or file (their order is the
 * order they were written in). A background job keeps its input open (job_input) and writes
 * into its log.
 */
export function spawnShell(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv = defaultToolEnv(),
  sandbox: ShellSandbox | undefined,
  io: ShellStdio = {},
): ShellProcess {
  // Same line as the command, so bash's "line N" in error messages stays right.
  const argv = [shellProgram(cwd), "-c", `exec 2>&1; ${command}`];
  const wrapped = sandbox ? sandbox.wrap(argv) : { file: argv[0], args: argv.slice(1) };
  const { file, args, fd3 } = wrapped;
  // A `.git`/`.tern` not made yet gets its read-only placeholder for as long as the command lives.
  const release = sandbox ? holdPlaceholders(wrapped.placeholders ?? sandbox.policy.placeholders) : () => {};
  const out = io.output ?? "pipe";
  const stdio: ("ignore" | "pipe" | number)[] = [io.stdin ?? "ignore", out, out];
  if (fd3) stdio.push("pipe");
  const tag = newCallTag();
  const entry = contained(file, args);
  const child = spawn(entry.file, entry.args, {
    cwd,
    env: { ...env, [TAG_VAR]: tag },
    detached: true,
    stdio,
  });
  child.once("exit", release);
  child.once("error", release);
  // The sandbox's seccomp filter, read once by bubblewrap before the command starts.
  if (fd3) {
    const input = child.stdio[3] as Writable;
    input.on("error", () => {});
    input.end(fd3);
  }
  return { child, tag };
}

let cachedToolEnv: NodeJS.ProcessEnv | undefined;
/** Without a session's configuration: tern's environment scrubbed with the default patterns. */
function defaultToolEnv(): NodeJS.ProcessEnv {
  cachedToolEnv ??= scrubbedEnv(process.env, defaultConfig());
  return cachedToolEnv;
}

/** SIGTERM to the group now, SIGKILL after the grace time; resolves once everything of it is gone. */
export function stopGroup(pid: number, tag: string): Promise<void> {
  killGroup(pid, "SIGTERM");
  const done = escalate(pid, tag);
  trackEscalation(done);
  return done;
}

/**
 * Stops what still carries `tag` (a job of an earlier tern that a crash left running, found again
 * at its resume): SIGTERM, SIGKILL after the grace time. Resolves when none is left.
 */
export function stopTagged(tag: string): Promise<void> {
  const done = escalate(null, tag, true);
  trackEscalation(done);
  return done;
}

/** After a call's shell exits: a group that still has members is stopped when the session ends. */
export function keepLeftover(pid: number, tag: string): void {
  if (groupExists(pid)) leftovers.set(pid, tag);
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is already gone.
  }
}

/** Whether any member of the process group still runs (zombies waiting to be reaped do not count). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
  if (process.platform !== "linux") return true;
  try {
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${name}/stat`, "utf8");
      } catch {
        continue;
      }
      // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so split after the last ")".
      const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
    }
    return false;
  } catch {
    return true;
  }
}

/**
 * After SIGTERM, a group member that ignores it gets SIGKILL once the grace time is over. The
 * group is checked as it goes, so a group that obeyed ends the wait early. The timer is
 * deliberately not unref'd, and `settleProcessKills` lets tern wait for it before exiting, so
 * no descendant outlives tern (R-BASH-1).
 */
async function escalate(pid: number | null, tag: string, exact = true): Promise<void> {
  // Processes of the call that left its group (`setsid …`) get the same treatment.
  const strays = () => taggedPids(tag, exact, pid ?? undefined);
  signalAll(strays(), "SIGTERM");
  const alive = () => (pid !== null && groupAlive(pid)) || strays().length > 0;
  const deadline = performance.now() + KILL_GRACE_MS;
  while (performance.now() < deadline) {
    if (!alive()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  if (pid !== null) killGroup(pid, "SIGKILL");
  signalAll(strays(), "SIGKILL");
  // SIGKILL is delivered asynchronously: on a loaded machine the group may take a moment to die.
  const gone = performance.now() + KILL_SETTLE_MS;
  while (performance.now() < gone && alive()) await new Promise((r) => setTimeout(r, 20));
}

const escalations = new Set<Promise<void>>();
function trackEscalation(p: Promise<void>): void {
  escalations.add(p);
  void p.finally(() => escalations.delete(p));
}

/**
 * Process groups whose shell has exited while something it started in the background (`server &`)
 * still runs. They may keep running while the session lives (a dev server the model started), but
 * not past it: `settleProcessKills` stops them before tern exits (R-BASH-1: no descendant outlives tern).
 */
const leftovers = new Map<number, string>();

/** Any member of the group left, zombies included; a cheap check (no /proc scan) for each call's end. */
function groupExists(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Resolves once every process group tern started is gone: groups told to stop, and groups a
 * finished command left running in the background (SIGTERM, then SIGKILL where needed).
 */
export async function settleProcessKills(): Promise<void> {
  for (const [pgid, tag] of leftovers) {
    leftovers.delete(pgid);
    if (!groupExists(pgid)) continue;
    killGroup(pgid, "SIGTERM");
    trackEscalation(escalate(pgid, tag));
  }
  // Whatever any call started that left its group and still runs.
  const prefix = ownTagPrefix();
  if (prefix && taggedPids(prefix, false).length > 0) trackEscalation(escalate(null, prefix, false));
  // Whatever left its group and dropped its tag too: the cgroup still holds it (process-cgroup.ts).
  trackEscalation(stopContained());
  while (escalations.size > 0) await Promise.all([...escalations]);
}
