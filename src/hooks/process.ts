// Runs one hook command (R-HOOK-4): `bash -c` in the workspace, its own process group, the
// payload as JSON on stdin, the scrubbed tool environment plus TERN_PROJECT_DIR and
// CLAUDE_PROJECT_DIR, inside the sandbox when one is on. On timeout or cancel the whole group is
// killed (SIGTERM, SIGKILL after 2 s) and the wait ends there: a child that left the group
// (`setsid … &`) may keep the pipes open, so they are closed rather than read to their end (it is
// ended with the session's other processes, process-cgroup.ts). Output is capped: a hook cannot
// flood the session.
import { spawn } from "node:child_process";
import { contained } from "../tools/builtin/process-cgroup.js";
import { newCallTag, TAG_VAR } from "../tools/builtin/process-tags.js";
import type { ShellSandbox } from "../tools/types.js";
import type { HookProcessResult } from "./protocol.js";
import { shellProgram } from "../programs/program-path.js";

/** Bytes kept of each of stdout and stderr. */
const OUTPUT_CAP = 64 * 1024;
const KILL_GRACE_MS = 2000;

export interface HookSpawn {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  input: string;
  timeoutSeconds: number;
  signal?: AbortSignal;
  sandbox?: ShellSandbox;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

export function runHookProcess(opts: HookSpawn): Promise<HookProcessResult> {
  return new Promise((resolve) => {
    const argv = [shellProgram(opts.cwd), "-c", opts.command];
    const { file, args, fd3 } = opts.sandbox
      ? opts.sandbox.wrap(argv)
      : { file: argv[0], args: argv.slice(1), fd3: undefined };
    const stdio: ("pipe" | "ignore")[] = ["pipe", "pipe", "pipe"];
    if (fd3) stdio.push("pipe");
    const entry = contained(file, args);
    // The process tag too: where there is no cgroup, what the hook left is found by it (process-tags.ts).
    const env = { ...opts.env, [TAG_VAR]: newCallTag() };
    const child = spawn(entry.file, entry.args, { cwd: opts.cwd, env, detached: true, stdio });
    const out = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0) };
    const keep = (which: "stdout" | "stderr") => (chunk: Buffer) => {
      if (out[which].length < OUTPUT_CAP)
        out[which] = Buffer.concat([out[which], chunk]).subarray(0, OUTPUT_CAP);
    };
    child.stdout?.on("data", keep("stdout"));
    child.stderr?.on("data", keep("stderr"));
    if (fd3) {
      const extra = child.stdio[3] as NodeJS.WritableStream & { on(e: "error", f: () => void): void };
      extra.on("error", () => {});
      extra.end(fd3);
    }
    // A hook that never reads its stdin (or exits first) must not fail the write.
    child.stdin?.on("error", () => {});
    child.stdin?.end(opts.input);

    let timedOut = false;
    // The wait ends now, whether or not the hook's shell has exited (its pipes may be held by a
    // child in a session of its own); the group gets SIGKILL after the grace time.
    const stop = () => {
      if (settled || child.pid === undefined) return;
      killGroup(child.pid, "SIGTERM");
      const pid = child.pid;
      const escalation = setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS);
      escalation.unref();
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish(child.exitCode, false);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutSeconds * 1000);
    opts.signal?.addEventListener("abort", stop, { once: true });
    let settled = false;
    const finish = (exit: number | null, ended = true) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", stop);
      // Whatever the hook left in its group goes with it.
      if (ended && child.pid !== undefined) killGroup(child.pid, "SIGKILL");
      resolve({ exit, stdout: out.stdout.toString("utf8"), stderr: out.stderr.toString("utf8"), timedOut });
    };
    child.on("error", (err) => {
      out.stderr = Buffer.from(`could not start bash: ${err.message}`);
      finish(null);
    });
    child.on("close", (code) => finish(code));
  });
}
