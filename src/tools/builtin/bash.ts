// bash (R-BASH-1): runs in the workspace in its own process group; timeout and cancel kill the
// whole group (SIGTERM, then SIGKILL after 2 s); output is capped, head and tail kept.
import { type ChildProcessByStdio, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import type { Readable, Writable } from "node:stream";
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { defaultConfig } from "../../config/defaults.js";
import { scrubbedEnv } from "../../config/secrets.js";
import { sandboxBlock, sandboxNote } from "../../sandbox/failure.js";
import type { ShellSandbox, Tool, ToolResult } from "../types.js";
import { CappedOutput } from "./output-cap.js";
import { newCallTag, ownTagPrefix, signalAll, TAG_VAR, taggedPids } from "./process-tags.js";

/** Under the default toolOutputLimit (30,000), so the bash note is the one the model reads. */
export const BASH_OUTPUT_CAP = 29_000;
const KILL_GRACE_MS = 2000;
/** How long tern waits for SIGKILLed processes to be gone before it may exit. */
const KILL_SETTLE_MS = 2000;
/** After bash exits, a background child may still hold the pipes; wait this long for them, no more. */
const PIPE_DRAIN_MS = 200;

const schema = lazySchema(() =>
  z.object({ command: z.string().check(z.minLength(1), z.describe("Shell command")) }),
);
type Args = z.infer<ReturnType<typeof schema>>;

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
  const deadline = Date.now() + KILL_GRACE_MS;
  while (Date.now() < deadline) {
    if (!alive()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  if (pid !== null) killGroup(pid, "SIGKILL");
  signalAll(strays(), "SIGKILL");
  // SIGKILL is delivered asynchronously: on a loaded machine the group may take a moment to die.
  const gone = Date.now() + KILL_SETTLE_MS;
  while (Date.now() < gone && alive()) await new Promise((r) => setTimeout(r, 20));
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
  while (escalations.size > 0) await Promise.all([...escalations]);
}

let cachedToolEnv: NodeJS.ProcessEnv | undefined;
/** Without a session's configuration: tern's environment scrubbed with the default patterns. */
function defaultToolEnv(): NodeJS.ProcessEnv {
  cachedToolEnv ??= scrubbedEnv(process.env, defaultConfig());
  return cachedToolEnv;
}

export function runBash(
  command: string,
  cwd: string,
  timeoutSeconds: number | null,
  signal: AbortSignal,
  sandbox?: ShellSandbox,
  env: NodeJS.ProcessEnv = defaultToolEnv(),
): Promise<ToolResult> {
  if (signal.aborted)
    return Promise.resolve({ outcome: "error", content: [{ type: "text", text: "cancelled" }] });
  return new Promise((resolve) => {
    const output = new CappedOutput(BASH_OUTPUT_CAP);
    // Both streams into one pipe, so their order is the order they were written in. Same line as
    // the command, so bash's "line N" in error messages stays right.
    const argv = ["bash", "-c", `exec 2>&1; ${command}`];
    const { file, args, fd3 } = sandbox ? sandbox.wrap(argv) : { file: argv[0], args: argv.slice(1) };
    const stdio: ("ignore" | "pipe")[] = ["ignore", "pipe", "pipe"];
    if (fd3) stdio.push("pipe");
    const tag = newCallTag();
    const child = spawn(file, args, {
      cwd,
      env: { ...env, [TAG_VAR]: tag },
      detached: true,
      stdio,
    }) as ChildProcessByStdio<null, Readable, Readable>;
    // The sandbox's seccomp filter, read once by bubblewrap before the command starts.
    if (fd3) {
      const input = child.stdio[3] as Writable;
      input.on("error", () => {});
      input.end(fd3);
    }
    const decoders = [new StringDecoder("utf8"), new StringDecoder("utf8")];
    child.stdout.on("data", (b: Buffer) => output.push(decoders[0].write(b)));
    child.stderr.on("data", (b: Buffer) => output.push(decoders[1].write(b)));

    let stopped: "timeout" | "cancel" | null = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let spawnError: Error | null = null;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const stop = (why: "timeout" | "cancel") => {
      if (stopped || exit || child.pid === undefined) return;
      stopped = why;
      const pid = child.pid;
      killGroup(pid, "SIGTERM");
      trackEscalation(escalate(pid, tag));
    };
    const timer =
      timeoutSeconds === null ? undefined : setTimeout(() => stop("timeout"), timeoutSeconds * 1000);
    const onAbort = () => stop("cancel");
    signal.addEventListener("abort", onAbort, { once: true });

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(drainTimer);
      signal.removeEventListener("abort", onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      if (exit && !stopped && child.pid !== undefined && groupExists(child.pid))
        leftovers.set(child.pid, tag);
      output.push(decoders[0].end() + decoders[1].end());
      resolve(describe(output.text(), exit, stopped, timeoutSeconds, spawnError));
    };
    child.on("error", (err) => {
      spawnError = err;
      finish();
    });
    child.on("exit", (code, sig) => {
      exit = { code, signal: sig };
      drainTimer = setTimeout(finish, PIPE_DRAIN_MS);
    });
    child.on("close", finish);
  });
}

function describe(
  text: string,
  exit: { code: number | null; signal: NodeJS.Signals | null } | null,
  stopped: "timeout" | "cancel" | null,
  timeoutSeconds: number | null,
  spawnError: Error | null,
): ToolResult {
  const body = text.replace(/\n$/, "");
  const parts = body === "" ? [] : [body];
  let failed = true;
  if (spawnError) parts.push(`[could not start bash: ${spawnError.message}]`);
  else if (stopped === "timeout")
    parts.push(`[timed out after ${timeoutSeconds}s; the process group was killed]`);
  else if (stopped === "cancel") parts.push("[cancelled; the process group was killed]");
  else if (exit?.code === 0) failed = false;
  else if (exit?.code != null) parts.push(`[exit status ${exit.code}]`);
  else parts.push(`[killed by signal ${exit?.signal ?? "unknown"}]`);
  if (parts.length === 0) parts.push("(no output)");
  return { outcome: failed ? "error" : "ok", content: [{ type: "text", text: parts.join("\n") }] };
}

const textOf = (r: ToolResult) => r.content.map((p) => (p.type === "text" ? p.text : "")).join("\n");

/**
 * Runs the command in the sandbox when there is one. A failure that reads like the sandbox's doing
 * says so, and where a person can be asked, they may let that one command run outside (R-SBX-3).
 */
export async function runShellCall(
  command: string,
  cwd: string,
  timeoutSeconds: number | null,
  signal: AbortSignal,
  sandbox: ShellSandbox | undefined,
  env?: NodeJS.ProcessEnv,
): Promise<ToolResult> {
  if (!sandbox) return runBash(command, cwd, timeoutSeconds, signal, undefined, env);
  const inside = { ...(await runBash(command, cwd, timeoutSeconds, signal, sandbox, env)), sandboxed: true };
  const text = textOf(inside);
  const block =
    inside.outcome === "error" && !signal.aborted ? sandboxBlock(text, sandbox.policy) : undefined;
  if (!block) return inside;
  if (sandbox.approveOutside && (await sandbox.approveOutside(command))) {
    const outside = await runBash(command, cwd, timeoutSeconds, signal, undefined, env);
    const note = "[it failed in the sandbox; run again outside the sandbox with the user's approval]";
    return { ...outside, sandboxed: false, content: [{ type: "text", text: `${note}\n${textOf(outside)}` }] };
  }
  return { ...inside, content: [{ type: "text", text: `${text}\n${sandboxNote(block, sandbox.policy)}` }] };
}

export const bashTool: Tool<Args> = {
  name: "bash",
  description:
    "Run a shell command with bash in the workspace; stdout and stderr are returned together. Non-zero " +
    "exit is an error. Long output is cut in the middle; avoid interactive commands.",
  get schema() {
    return schema();
  },
  kind: "shell",
  paths: () => [],
  run: (args, ctx) =>
    runShellCall(args.command, ctx.cwd, ctx.bashTimeoutSeconds, ctx.signal, ctx.sandbox, ctx.env),
};
