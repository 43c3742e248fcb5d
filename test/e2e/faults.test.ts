// Through the built CLI: every provider fault either recovers with exactly one
// final answer (nothing of the failed attempt in stdout, events or record) after `retry_scheduled`
// events with the configured / server-given delays, or fails at once with a clear message.
// Counting (R-TURN-5), the maxRetries cap (R-RETRY-2) and SIGINT during a backoff (R-RETRY-6) too.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliEnv, jsonEvents, runCli, TERN_BIN } from "../support/cli.js";
import { FakeProvider, type ScriptedResponse } from "../support/fake-provider.js";
import { openaiError, openaiStream, openaiText } from "../support/openai-script.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

const MAX_RETRIES = 3;
/** jitter 0 so backoff delays are exact: 10, 20, 40 ms (maxDelay 50). */
const RETRY = {
  maxRetries: MAX_RETRIES,
  baseDelaySeconds: 0.01,
  factor: 2,
  jitter: 0,
  maxDelaySeconds: 0.05,
};
const backoff = (k: number) => Math.min(50, 10 * 2 ** (k - 1));
const FINAL = "Recovered answer.";
/** Text every failed attempt streams; it must never survive. */
const LOST = "LOST-ATTEMPT-TEXT";

interface Env {
  dirs: TempDirs;
  provider: FakeProvider;
}

async function withEnv(fn: (env: Env) => Promise<void>): Promise<void> {
  const dirs = makeTempDirs();
  const provider = await FakeProvider.start();
  writeFileSync(
    join(dirs.home, "config.json"),
    // The idle timeout must hold on a busy machine: a CPU-starved child may wait a second for bytes.
    JSON.stringify({ retry: RETRY, streamIdleTimeoutSeconds: 2 }),
  );
  try {
    await fn({ dirs, provider });
  } finally {
    await provider.close();
    dirs.cleanup();
  }
}

function run(env: Env, json: boolean) {
  const args = [
    "run",
    ...(json ? ["--json"] : []),
    "--model",
    "openai/mock-1",
    "--base-url",
    env.provider.baseUrl,
  ];
  return runCli([...args, "answer me"], {
    home: env.dirs.home,
    cwd: env.dirs.workspace,
    env: { OPENAI_API_KEY: "sk-test-key" },
  });
}

/** The record of the only session (or, with `all`, every session's records joined). */
function recordText(home: string, all = false): string {
  const root = join(home, "sessions");
  const files: string[] = [];
  for (const ws of readdirSync(root))
    for (const id of readdirSync(join(root, ws))) files.push(join(root, ws, id, "record.jsonl"));
  if (!all) expect(files).toHaveLength(1);
  return files.map((f) => readFileSync(f, "utf8")).join("");
}

const recordLines = (home: string) =>
  recordText(home)
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** A stream that sends text with the lost marker, then whatever `tail` does to it. */
const partial = () => openaiStream().text(LOST).text(" more");

interface Recoverable {
  name: string;
  failures: ScriptedResponse[];
  /** Expected delay_ms of each retry_scheduled (default: the backoff schedule). */
  delays?: number[];
  reason: string;
  status: number | null;
  /** The failed attempts streamed text (→ stream_discarded). */
  streamed?: boolean;
  /** Usage events the failed attempts contribute. */
  failedUsage?: number;
}

const http = (status: number, type = "server_error", headers?: Record<string, string>) =>
  openaiError(status, { error: { message: `upstream said ${status}`, type } }, headers);

const RECOVERABLE: Recoverable[] = [
  {
    // 80 ms is over maxDelay (50 ms): a server-given delay is honoured uncapped.
    name: "429 with retry-after (fractional seconds)",
    failures: [http(429, "rate_limit_exceeded", { "retry-after": "0.08" })],
    delays: [80],
    reason: "rate_limit",
    status: 429,
  },
  {
    name: "429 with retry-after: 0",
    failures: [http(429, "rate_limit_exceeded", { "retry-after": "0" })],
    delays: [0],
    reason: "rate_limit",
    status: 429,
  },
  {
    name: "429 with retry-after-ms (wins over retry-after)",
    failures: [http(429, "rate_limit_exceeded", { "retry-after-ms": "120", "retry-after": "20" })],
    delays: [120],
    reason: "rate_limit",
    status: 429,
  },
  { name: "500", failures: [http(500)], reason: "server", status: 500 },
  { name: "502", failures: [http(502)], reason: "server", status: 502 },
  { name: "503", failures: [http(503)], reason: "server", status: 503 },
  { name: "504", failures: [http(504)], reason: "server", status: 504 },
  { name: "529", failures: [http(529, "overloaded_error")], reason: "overloaded", status: 529 },
  { name: "408", failures: [http(408, "timeout")], reason: "timeout", status: 408 },
  { name: "404", failures: [http(404, "not_found")], reason: "not_found", status: 404 },
  {
    name: "500 three times in a row (backoff grows)",
    failures: [http(500), http(500), http(500)],
    reason: "server",
    status: 500,
  },
  {
    name: "reset before headers",
    failures: [{ ...openaiText("never"), fault: { kind: "reset_before_headers" } }],
    reason: "network",
    status: null,
  },
  {
    name: "reset mid-stream after text",
    failures: [{ ...partial().finish("stop").build(), fault: { kind: "reset_after", frames: 3 } }],
    reason: "network",
    status: null,
    streamed: true,
  },
  {
    name: "stall past the idle timeout",
    failures: [{ ...partial().finish("stop").build(), fault: { kind: "stall_after", frames: 3 } }],
    reason: "timeout",
    status: null,
    streamed: true,
  },
  {
    name: "stream cut without a finish (usage was reported)",
    failures: [partial().usage({ prompt_tokens: 7, completion_tokens: 3 }).noDone().build()],
    reason: "incomplete_stream",
    status: null,
    streamed: true,
    failedUsage: 1,
  },
  {
    name: "malformed chunk",
    failures: [partial().malformed().finish("stop").build()],
    reason: "incomplete_stream",
    status: null,
    streamed: true,
  },
  {
    name: "in-stream error",
    failures: [partial().error({ message: "The server had an error", type: "server_error" }).build()],
    reason: "server",
    status: 500,
    streamed: true,
  },
];

describe.concurrent("provider faults through tern run --json", () => {
  for (const c of RECOVERABLE) {
    it(`recovers from ${c.name}`, () =>
      withEnv(async (env) => {
        env.provider.enqueue(...c.failures, openaiText(FINAL, { prompt_tokens: 11, completion_tokens: 4 }));
        const result = await run(env, true);
        expect(result.stderr).toBe("");
        expect(result.code, result.stderr).toBe(0);
        const events = jsonEvents(result.stdout);
        const n = c.failures.length;
        expect(env.provider.requests).toHaveLength(n + 1);

        const retries = events.filter((e) => e.type === "retry_scheduled");
        const delays = c.delays ?? c.failures.map((_, i) => backoff(i + 1));
        expect(retries.map((e) => e.delay_ms)).toEqual(delays);
        retries.forEach((e, i) => {
          expect(e).toMatchObject({ attempt: i + 2, reason: c.reason, status: c.status });
          expect(e.message).toBeTruthy();
        });

        const discarded = events.filter((e) => e.type === "stream_discarded");
        expect(discarded).toEqual(
          c.streamed
            ? c.failures.map((_, i) => ({ type: "stream_discarded", round: 1, attempt: i + 1 }))
            : [],
        );
        const messages = events.filter((e) => e.type === "assistant_message");
        expect(messages).toHaveLength(1);
        expect(messages[0]).toMatchObject({ text: FINAL, finish_reason: "stop" });

        // Counting: every request is a model call, the retried round counts once, one usage per report.
        const end = events.find((e) => e.type === "turn_end");
        expect(end).toMatchObject({ stop_reason: "completed", rounds: 1, model_calls: n + 1 });
        const usages = events.filter((e) => e.type === "usage");
        expect(usages).toHaveLength(1 + (c.failedUsage ?? 0));
        const sum = (k: string) => usages.reduce((s, u) => s + u[k], 0);
        expect(end.usage).toEqual({
          prompt: sum("prompt"),
          completion: sum("completion"),
          cache_read: sum("cache_read"),
          cache_write: sum("cache_write"),
        });

        // The failed attempt's text is gone from the record; the final answer is there once.
        const record = recordText(env.dirs.home);
        expect(record).not.toContain(LOST);
        const assistant = recordLines(env.dirs.home).filter((l) => l.type === "assistant_message");
        expect(assistant.map((l) => l.text)).toEqual([FINAL]);
        expect(record).not.toContain("sk-test-key");

        // The same fault without --json: stdout is the final answer only, one stderr line per retry.
        env.provider.enqueue(...c.failures, openaiText(FINAL));
        const plain = await run(env, false);
        expect(plain.code, plain.stderr).toBe(0);
        expect(plain.stdout).toBe(`${FINAL}\n`);
        expect(plain.stderr.match(/^retrying model request: .+/gm)).toHaveLength(n);
        expect(plain.stderr).not.toContain(LOST);
        expect(env.provider.requests).toHaveLength(2 * (n + 1));
        expect(recordText(env.dirs.home, true)).not.toContain(LOST);
      }));
  }

  it("never exceeds maxRetries: a 503 forever fails after maxRetries + 1 requests, exit 1", () =>
    withEnv(async (env) => {
      env.provider.setFallback(http(503));
      const result = await run(env, true);
      expect(result.code, result.stderr).toBe(1);
      expect(env.provider.requests).toHaveLength(MAX_RETRIES + 1);
      const events = jsonEvents(result.stdout);
      expect(events.filter((e) => e.type === "retry_scheduled").map((e) => e.delay_ms)).toEqual([10, 20, 40]);
      expect(events.find((e) => e.type === "error")).toMatchObject({ class: "server", status: 503 });
      expect(events.find((e) => e.type === "turn_end")).toMatchObject({
        stop_reason: "failed",
        rounds: 0,
        model_calls: MAX_RETRIES + 1,
        error: { class: "server", status: 503 },
      });
    }));

  const FATAL = [
    {
      name: "429 quota",
      response: openaiError(429, {
        error: {
          message: "You exceeded your current quota",
          type: "insufficient_quota",
          code: "insufficient_quota",
        },
      }),
      code: 1,
      stop: "failed",
      cls: "quota",
      maxRequests: 1,
      stderr: /^error: quota \(HTTP 429\): You exceeded your current quota$/m,
    },
    {
      name: "401",
      response: openaiError(401, {
        error: { message: "Incorrect API key provided: sk-test-key.", type: "invalid_request_error" },
      }),
      code: 1,
      stop: "failed",
      cls: "auth",
      maxRequests: 1,
      stderr: /^error: auth \(HTTP 401\): Incorrect API key provided: \[redacted\]\.$/m,
    },
    {
      name: "400 context overflow",
      response: openaiError(400, {
        error: {
          message: "This model's maximum context length is 8192 tokens.",
          type: "invalid_request_error",
          code: "context_length_exceeded",
        },
      }),
      code: 3,
      stop: "context_overflow",
      cls: "context_overflow",
      // Never retried by the retry policy; R-COMP-4 allows one compaction and one re-run of the round.
      maxRequests: 2,
      stderr: /^error: context_overflow \(HTTP 400\): This model's maximum context length/m,
    },
  ];

  for (const f of FATAL) {
    it(`fails at once on ${f.name} (exit ${f.code}, no retry)`, () =>
      withEnv(async (env) => {
        env.provider.setFallback(f.response);
        const result = await run(env, true);
        expect(result.code, result.stderr).toBe(f.code);
        const sent = env.provider.requests.length;
        expect(sent).toBeGreaterThanOrEqual(1);
        expect(sent).toBeLessThanOrEqual(f.maxRequests);
        const events = jsonEvents(result.stdout);
        expect(events.filter((e) => e.type === "retry_scheduled")).toEqual([]);
        expect(events.find((e) => e.type === "error")).toMatchObject({ class: f.cls });
        expect(events.find((e) => e.type === "turn_end")).toMatchObject({
          stop_reason: f.stop,
          model_calls: sent,
          rounds: 0,
          error: { class: f.cls },
        });
        expect(result.stdout).not.toContain("sk-test-key");

        // Without --json: nothing on stdout, a clear message on stderr.
        const plain = await run(env, false);
        expect(plain.code, plain.stderr).toBe(f.code);
        expect(plain.stdout).toBe("");
        expect(plain.stderr).toMatch(f.stderr);
        expect(plain.stderr).not.toContain("retrying model request");
        expect(plain.stderr).not.toContain("sk-test-key");
        expect(env.provider.requests).toHaveLength(2 * sent);
      }));
  }
});

describe.concurrent("provider faults through tern run without --json", () => {
  it("prints 'retrying model request:' lines on stderr and only the final answer on stdout", () =>
    withEnv(async (env) => {
      env.provider.enqueue(
        http(429, "rate_limit_exceeded", { "retry-after-ms": "5" }),
        { ...partial().finish("stop").build(), fault: { kind: "reset_after", frames: 3 } },
        http(503),
        openaiText(FINAL),
      );
      const result = await run(env, false);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toBe(`${FINAL}\n`);
      const lines = result.stderr.split("\n").filter((l) => l.startsWith("retrying model request: "));
      expect(lines).toHaveLength(3);
      expect(lines[0]).toContain("upstream said 429");
      expect(lines[2]).toContain("upstream said 503");
      expect(result.stderr).not.toContain(LOST);
      expect(recordText(env.dirs.home)).not.toContain(LOST);
    }));

  it("fails with a clear message and exit 1 once retries are spent", () =>
    withEnv(async (env) => {
      env.provider.setFallback(http(502));
      const result = await run(env, false);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stdout).toBe("");
      expect(result.stderr.match(/^retrying model request: /gm)).toHaveLength(MAX_RETRIES);
      expect(result.stderr).toMatch(/^error: server \(HTTP 502\): upstream said 502$/m);
      expect(env.provider.requests).toHaveLength(MAX_RETRIES + 1);
    }));
});

describe("cancellation during a backoff (R-RETRY-6)", () => {
  it("SIGINT while waiting out retry-after: 600 exits 130 at once and records a cancelled turn", () =>
    withEnv(async (env) => {
      // A ten-minute wait: only the cancel can end the run before the safety kill below.
      env.provider.setFallback(http(429, "rate_limit_exceeded", { "retry-after": "600" }));
      const child = spawn(
        process.execPath,
        [TERN_BIN, "run", "--json", "--model", "openai/mock-1", "--base-url", env.provider.baseUrl, "hi"],
        { cwd: env.dirs.workspace, env: cliEnv(env.dirs.home, { OPENAI_API_KEY: "x" }), stdio: "pipe" },
      );
      child.stdin.end();
      let stdout = "";
      const exited = new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
      let killer: NodeJS.Timeout | undefined;
      let code: number | null;
      try {
        // Wait for the retry to be scheduled: the process is now in the ten-minute backoff.
        await new Promise<void>((resolve, reject) => {
          child.stdout.setEncoding("utf8").on("data", (d: string) => {
            stdout += d;
            if (stdout.includes('"retry_scheduled"')) resolve();
          });
          void exited.then(() => reject(new Error(`tern exited before the retry: ${stdout}`)));
        });
        expect(jsonEvents(stdout).find((e) => e.type === "retry_scheduled")).toMatchObject({
          delay_ms: 600_000,
        });
        child.kill("SIGINT");
        // A run that kept waiting is killed (code null) well before the test's own timeout.
        killer = setTimeout(() => child.kill("SIGKILL"), 15_000);
        code = await exited;
      } finally {
        clearTimeout(killer);
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      }
      expect(code).toBe(130);
      expect(env.provider.requests).toHaveLength(1);
      const last = recordLines(env.dirs.home).at(-1);
      expect(last).toMatchObject({ type: "turn_end", stopReason: "cancelled" });
      expect(jsonEvents(stdout).find((e) => e.type === "turn_end")).toMatchObject({
        stop_reason: "cancelled",
      });
    }));
});
