// bash (R-BASH-1): runs in the workspace in its own process group; timeout and cancel kill the
// whole group (SIGTERM, then SIGKILL after 2 s); output is capped, head and tail kept. With
// `run_in_background` it starts a job instead (R-JOB-1, job-tools.ts).
import { StringDecoder } from "node:string_decoder";
import { text } from "../present.js";
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { sandboxBlock, sandboxNote } from "../../sandbox/failure.js";
import type { ShellSandbox, Tool, ToolResult } from "../types.js";
import { startJob } from "./job-tools.js";
import { CappedOutput } from "./output-cap.js";
import { keepLeftover, spawnShell, stopGroup } from "./process-groups.js";

/** Under the default toolOutputLimit (30,000), so the bash note is the one the model reads. */
export const BASH_OUTPUT_CAP = 29_000;
/** After bash exits, a background child may still hold the pipes; wait this long for them, no more. */
const PIPE_DRAIN_MS = 200;

const schema = lazySchema(() =>
  z.object({
    command: z.string().check(z.minLength(1)),
    run_in_background: z.optional(z.boolean()),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

export function runBash(
  command: string,
  cwd: string,
  timeoutSeconds: number | null,
  signal: AbortSignal,
  sandbox?: ShellSandbox,
  env?: NodeJS.ProcessEnv,
  onOutput?: (text: string) => void,
): Promise<ToolResult> {
  if (signal.aborted)
    return Promise.resolve({ outcome: "error", content: [{ type: "text", text: "cancelled" }] });
  return new Promise((resolve) => {
    const output = new CappedOutput(BASH_OUTPUT_CAP);
    const { child, tag } = spawnShell(command, cwd, env, sandbox);
    const stdout = child.stdout!;
    const stderr = child.stderr!;
    const decoders = [new StringDecoder("utf8"), new StringDecoder("utf8")];
    // Each chunk also goes to whoever shows the output live (the UI's tail, R-UI-18).
    const take = (text: string) => {
      output.push(text);
      onOutput?.(text);
    };
    stdout.on("data", (b: Buffer) => take(decoders[0].write(b)));
    stderr.on("data", (b: Buffer) => take(decoders[1].write(b)));

    let stopped: "timeout" | "cancel" | null = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let spawnError: Error | null = null;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const stop = (why: "timeout" | "cancel") => {
      if (stopped || exit || child.pid === undefined) return;
      stopped = why;
      void stopGroup(child.pid, tag);
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
      stdout.destroy();
      stderr.destroy();
      if (exit && !stopped && child.pid !== undefined) keepLeftover(child.pid, tag);
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
  onOutput?: (text: string) => void,
): Promise<ToolResult> {
  if (!sandbox) return runBash(command, cwd, timeoutSeconds, signal, undefined, env, onOutput);
  const inside = {
    ...(await runBash(command, cwd, timeoutSeconds, signal, sandbox, env, onOutput)),
    sandboxed: true,
  };
  const text = textOf(inside);
  const block =
    inside.outcome === "error" && !signal.aborted ? sandboxBlock(text, sandbox.policy) : undefined;
  if (!block) return inside;
  if (sandbox.approveOutside && (await sandbox.approveOutside(command))) {
    const outside = await runBash(command, cwd, timeoutSeconds, signal, undefined, env, onOutput);
    const note = "[it failed in the sandbox; run again outside the sandbox with the user's approval]";
    return { ...outside, sandboxed: false, content: [{ type: "text", text: `${note}\n${textOf(outside)}` }] };
  }
  return { ...inside, content: [{ type: "text", text: `${text}\n${sandboxNote(block, sandbox.policy)}` }] };
}

export const bashTool: Tool<Args> = {
  name: "bash",
  description:
    "Run a non-interactive bash command: stdout+stderr, long output cut in the middle. Servers, " +
    "watchers: run_in_background.",
  get schema() {
    return schema();
  },
  kind: "shell",
  paths: () => [],
  present: (args) => ({
    title: text(args.command),
    kind: "execute",
    locations: [],
    ...(typeof args.command === "string" ? { preview: { type: "command", command: args.command } } : {}),
  }),
  run: (args, ctx) =>
    args.run_in_background
      ? startJob(args.command, ctx)
      : runShellCall(
          args.command,
          ctx.cwd,
          ctx.bashTimeoutSeconds,
          ctx.signal,
          ctx.sandbox,
          ctx.env,
          ctx.output && ctx.callId ? (text) => ctx.output?.(ctx.callId ?? "", text) : undefined,
        ),
};
