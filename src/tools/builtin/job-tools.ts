// Background jobs as tools (R-JOB-1): `bash {run_in_background: true}` starts one through the
// bash tool's own spawn path (sandbox, scrubbed environment, process tag, own group);
// `job_output`, `job_input` and `job_kill` act on the session's jobs (jobs/). Results pass the
// R-TOOL-6 gate like every tool's, and the full output is in the job's log under the session.
import { StringDecoder } from "node:string_decoder";
import type { Readable } from "node:stream";
import * as z from "zod/mini";
import { StreamRedactor } from "../../config/secrets.js";
import type { CappedLog } from "../../jobs/log-writer.js";
import type { Job, JobRead } from "../../jobs/job.js";
import type { JobSlot } from "../../jobs/job-table.js";
import { stateText } from "../../jobs/job.js";
import { BoundedPattern, PatternError } from "../../jobs/pattern.js";
import { lazySchema } from "../lazy-schema.js";
import { errorMessage, fail, ok } from "../results.js";
import type { Tool, ToolContext, ToolResult } from "../types.js";
import { keepLeftover, spawnShell, stopGroup } from "./process-groups.js";

/** How long a start waits for the job's first output (R-JOB-1: "within about a second")… */
const FIRST_OUTPUT_MS = 1000;
/** …and then for the rest of that first burst. */
const FIRST_BURST_MS = 100;
export const MAX_WAIT_SECONDS = 600;

const NO_JOBS = "background jobs are not available in this session";

export async function startJob(command: string, ctx: ToolContext): Promise<ToolResult> {
  if (!ctx.jobs) return fail(NO_JOBS);
  let slot: JobSlot;
  try {
    slot = ctx.jobs.open();
  } catch (err) {
    return fail(`could not create the job's log: ${errorMessage(err)}`);
  }
  const { child, tag } = spawnShell(command, ctx.cwd, ctx.env, ctx.sandbox, { stdin: "pipe" });
  const drained = copyOutput(slot.log, child);
  const pid = child.pid;
  if (pid === undefined) {
    ctx.jobs.abandon(slot);
    const reason = await new Promise<string>((resolve) => child.once("error", (e) => resolve(e.message)));
    return fail(`[could not start bash: ${reason}]`);
  }
  // Something the job's shell left behind in its group is stopped when the session ends.
  child.once("exit", () => keepLeftover(pid, tag));
  const job = ctx.jobs.add(slot, command, { child, tag, stop: () => stopGroup(pid, tag), drained });
  if ((await job.nextOutput(FIRST_OUTPUT_MS)) && job.running)
    await new Promise((r) => setTimeout(r, FIRST_BURST_MS));
  const read = job.peek();
  const head =
    `Started ${job.id} in the background (pid ${job.pid}). Read new output with job_output ` +
    `{id: "${job.id}"} (wait_for a regex to wait for a line), send input with job_input, stop it with job_kill.`;
  return withSandbox(ok(`${head}\n${readText(job, read)}`), ctx);
}

/** How long a job's stream is quiet before the redactor's held tail is written (see copyInto). */
const HELD_FLUSH_MS = 150;

/** Copies a job's stdout and stderr into its log; resolves when both have ended. */
export function copyOutput(
  log: CappedLog,
  child: { stdout: Readable | null; stderr: Readable | null },
): Promise<void> {
  return Promise.all([copyInto(log, child.stdout), copyInto(log, child.stderr)]).then(() => {});
}

/**
 * Copies a job's output stream into its log, redacted as tool results are (R-CFG-3: a key the
 * job prints never reaches the disk); resolves when the stream ends.
 */
function copyInto(log: CappedLog, stream: Readable | null): Promise<void> {
  if (!stream) return Promise.resolve();
  const decoder = new StringDecoder("utf8");
  const redactor = new StreamRedactor();
  // The redactor holds back a tail that could begin a key until the next piece shows it is not
  // one; a job that printed a prompt and now waits for input sends no next piece, so what is held
  // goes to the log once the stream has been quiet a moment (a `wait_for` must see that line).
  // A timer only while something is held (a chatty job's chunks mostly hold nothing), moved on
  // by each piece rather than made anew.
  let idle: NodeJS.Timeout | undefined;
  const flushHeld = () => {
    idle = undefined;
    log.append(redactor.flush());
  };
  stream.on("data", (chunk: Buffer) => {
    log.append(redactor.push(decoder.write(chunk)));
    if (!redactor.holding) {
      clearTimeout(idle);
      idle = undefined;
    } else if (idle) idle.refresh();
    else idle = setTimeout(flushHeld, HELD_FLUSH_MS).unref();
  });
  return new Promise((resolve) => {
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clearTimeout(idle);
      log.append(redactor.push(decoder.end()) + redactor.flush());
      resolve();
    };
    stream.once("end", end);
    stream.once("error", end);
    stream.once("close", end);
  });
}

function withSandbox(result: ToolResult, ctx: ToolContext): ToolResult {
  return ctx.sandbox ? { ...result, sandboxed: true } : result;
}

/** The state line, the output and what the reader should know about it. */
function readText(job: Job, read: JobRead, waitFor?: string, seconds?: number): string {
  const lines = [
    `[${job.id} ${stateText(read.state)}${read.state.kind === "running" ? `; pid ${job.pid}` : ""}]`,
  ];
  if (read.dropped > 0)
    lines.push(
      `[${read.dropped} bytes of earlier output were dropped: the job's log keeps only its newest part (jobs.logMaxBytes, jobs.sessionLogMaxBytes)]`,
    );
  const body =
    read.elided > 0
      ? `${read.text}\n… [${read.elided} bytes elided; the full log is ${job.log}: read it with read_file offset/limit or grep] …\n${read.tail}`
      : read.text;
  lines.push(body.replace(/\n$/, "") || "(no new output)");
  if (read.waited === "timeout" && waitFor !== undefined)
    lines.push(`[wait_for ${JSON.stringify(waitFor)} did not match within ${seconds ?? 0}s]`);
  if (read.waited === "cancelled") lines.push("[the wait was cancelled]");
  return lines.join("\n");
}

function findJob(ctx: ToolContext, id: string): Job | ToolResult {
  if (!ctx.jobs) return fail(NO_JOBS);
  const found = ctx.jobs.find(id);
  return typeof found === "string" ? fail(found) : found;
}

// No description: every call's id comes from bash's result (`job-1`), and the definitions stay small.
const jobId = () => z.string().check(z.minLength(1));

const outputSchema = lazySchema(() =>
  z.object({
    id: jobId(),
    wait_for: z.optional(z.string()),
    timeout_seconds: z.optional(z.number().check(z.minimum(0), z.maximum(MAX_WAIT_SECONDS))),
  }),
);

export const jobOutputTool: Tool<z.infer<ReturnType<typeof outputSchema>>> = {
  name: "job_output",
  description:
    "A job's new output and state, once wait_for (JavaScript regex) matches, the job exits or " +
    "timeout_seconds (default 0) pass.",
  get schema() {
    return outputSchema();
  },
  kind: "read",
  paths: () => [],
  async run(args, ctx) {
    const job = findJob(ctx, args.id);
    if ("outcome" in job) return job;
    let pattern: BoundedPattern | undefined;
    try {
      if (args.wait_for !== undefined) pattern = new BoundedPattern(args.wait_for);
      const seconds = args.timeout_seconds ?? 0;
      const read = await job.read(pattern, seconds * 1000, ctx.signal);
      return ok(readText(job, read, args.wait_for, seconds));
    } catch (err) {
      if (err instanceof PatternError) return fail(err.message);
      throw err;
    }
  },
};

const inputSchema = lazySchema(() =>
  z.object({
    id: jobId(),
    text: z.string(),
  }),
);

export const jobInputTool: Tool<z.infer<ReturnType<typeof inputSchema>>> = {
  name: "job_input",
  description: "Write text to a job's stdin as is (end with \\n for a line).",
  get schema() {
    return inputSchema();
  },
  // Input to a shell runs code: judged like a bash command (R-JOB-1).
  kind: "shell",
  paths: () => [],
  async run(args, ctx) {
    const job = findJob(ctx, args.id);
    if ("outcome" in job) return job;
    const error = await job.write(args.text);
    return error ? fail(error) : ok(`wrote ${args.text.length} characters to ${job.id}`);
  },
};

const killSchema = lazySchema(() => z.object({ id: jobId() }));

export const jobKillTool: Tool<z.infer<ReturnType<typeof killSchema>>> = {
  name: "job_kill",
  description: "Stop a job and all its processes.",
  get schema() {
    return killSchema();
  },
  kind: "read",
  paths: () => [],
  async run(args, ctx) {
    const job = findJob(ctx, args.id);
    if ("outcome" in job) return job;
    const was = job.running;
    await job.stop("killed");
    const read = await job.read(undefined, 0, ctx.signal);
    const note = was ? `${job.id} was stopped` : `${job.id} had already ended`;
    return ok(`${note}\n${readText(job, read)}`);
  },
};
