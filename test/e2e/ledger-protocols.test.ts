// R-REC-8 / R-PROV-6 on the Anthropic Messages and OpenAI Responses protocols, through the built
// CLI: failed attempts that reported usage (an overloaded error after message_start, a
// response.failed with usage), cache reads and writes, a pause_turn continuation and an
// overflow's lowered re-send. The ledger must equal the usage the fake provider reported in the
// frames it sent, read here on its own (Anthropic: input + cache read + cache write, cumulative
// snapshots; Responses: input_tokens with cached tokens inside), priced with the configured
// prices — and the rebuilt ledger must equal the live one.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { anthropicError, anthropicStream } from "../support/anthropic-script.js";
import { runCli } from "../support/cli.js";
import { FakeProvider, type RecordedRequest } from "../support/fake-provider.js";
import { responsesStream } from "../support/responses-script.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

const ANTHROPIC_PRICE = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const RESPONSES_PRICE = { input: 1.25, output: 10, cacheRead: 0.125 };

let dirs: TempDirs;
let provider: FakeProvider;
beforeEach(async () => {
  dirs = makeTempDirs("tern-ledger-protocols-");
  provider = await FakeProvider.start();
  writeFileSync(
    join(dirs.home, "config.json"),
    JSON.stringify({
      retry: { baseDelaySeconds: 0.01, maxDelaySeconds: 0.05, maxRetries: 2 },
      providers: {
        ant: { api: "anthropic-messages", baseUrl: provider.baseUrl, apiKeyEnv: "ANT_TEST_KEY" },
        resp: { api: "openai-responses", baseUrl: provider.baseUrl, apiKeyEnv: "RESP_TEST_KEY" },
      },
      models: {
        "ant/claude-test": { pricing: ANTHROPIC_PRICE },
        "resp/gpt-test": { pricing: RESPONSES_PRICE },
      },
    }),
  );
});
afterEach(async () => {
  await provider.close();
  dirs.cleanup();
});

interface Usage4 {
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheWrite: number;
}

const payloads = (req: RecordedRequest) =>
  req.sent.flatMap((frame) => {
    const line = frame.split("\n").find((l) => l.startsWith("data: {"));
    return line ? [JSON.parse(line.slice(6))] : [];
  });

/** Anthropic: usage counts are cumulative snapshots; all input = input + cache read + cache write. */
function anthropicReported(req: RecordedRequest): Usage4 {
  const raw = {
    input_tokens: 0,
    output_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 0,
  };
  for (const p of payloads(req)) {
    const usage =
      p.type === "message_start" ? p.message?.usage : p.type === "message_delta" ? p.usage : undefined;
    for (const key of Object.keys(raw) as (keyof typeof raw)[])
      if (typeof usage?.[key] === "number") raw[key] = Math.max(raw[key], usage[key]);
  }
  return {
    prompt: raw.input_tokens + raw.cache_read_input_tokens + raw.cache_creation_input_tokens,
    completion: raw.output_tokens,
    cacheRead: raw.cache_read_input_tokens,
    cacheWrite: raw.cache_creation_input_tokens,
  };
}

/** Responses: input_tokens already holds the cached ones; output_tokens the reasoning ones. */
function responsesReported(req: RecordedRequest): Usage4 {
  const zero = { prompt: 0, completion: 0, cacheRead: 0, cacheWrite: 0 };
  const end = payloads(req).find((p) => p.type === "response.completed" || p.type === "response.failed");
  const usage = end?.response?.usage;
  if (!usage) return zero;
  return {
    prompt: usage.input_tokens,
    completion: usage.output_tokens,
    cacheRead: usage.input_tokens_details?.cached_tokens ?? 0,
    cacheWrite: 0,
  };
}

const priced = (u: Usage4, p: { input: number; output: number; cacheRead: number; cacheWrite?: number }) =>
  ((u.prompt - u.cacheRead - u.cacheWrite) * p.input +
    u.cacheRead * p.cacheRead +
    u.cacheWrite * (p.cacheWrite ?? p.input) +
    u.completion * p.output) /
  1_000_000;

const add = (a: Usage4, b: Usage4): Usage4 => ({
  prompt: a.prompt + b.prompt,
  completion: a.completion + b.completion,
  cacheRead: a.cacheRead + b.cacheRead,
  cacheWrite: a.cacheWrite + b.cacheWrite,
});

async function metricsJson(extra: string[] = []): Promise<any> {
  const out = await runCli(["metrics", "--json", ...extra], { home: dirs.home, cwd: dirs.workspace });
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

const run = (model: string, prompt: string, env: Record<string, string>) =>
  runCli(["run", "--json", "--yes", "--model", model, prompt], { home: dirs.home, cwd: dirs.workspace, env });

describe("the ledger is the bill on every protocol", () => {
  it("Anthropic and Responses sessions: totals = what the provider reported, priced; live = rebuilt", async () => {
    // --- Anthropic: an overloaded error after message_start (billed input), a tool round with a
    // cache write, an output limit lowered once, a pause_turn continuation, the answer.
    provider.enqueue(
      anthropicStream()
        .text("lost")
        .errorEvent("overloaded_error")
        .usage({ input_tokens: 5, output_tokens: 1, cache_creation_input_tokens: 1000 })
        .build(),
      anthropicStream()
        .toolUse({ id: "toolu_1", name: "bash", input: { command: "echo hi" } })
        .stop("tool_use")
        .usage(
          {
            input_tokens: 5,
            output_tokens: 30,
            cache_read_input_tokens: 0,
            cache_creation_input_tokens: 1000,
          },
          {
            input_tokens: 5,
            output_tokens: 1,
            cache_read_input_tokens: 0,
            cache_creation_input_tokens: 1000,
          },
        )
        .build(),
      anthropicError(
        400,
        "invalid_request_error",
        "input length and `max_tokens` exceed context limit: 190000 + 20000 > 200000, decrease input length or `max_tokens` and try again",
      ),
      anthropicStream()
        .text("searching")
        .stop("pause_turn")
        .usage({
          input_tokens: 40,
          output_tokens: 8,
          cache_read_input_tokens: 1000,
          cache_creation_input_tokens: 20,
        })
        .build(),
      anthropicStream()
        .text("done")
        .usage({
          input_tokens: 50,
          output_tokens: 10,
          cache_read_input_tokens: 1020,
          cache_creation_input_tokens: 0,
        })
        .build(),
    );
    const a = await run("ant/claude-test", "go", { ANT_TEST_KEY: "ant-test-key-1234" });
    expect(a.code, a.stderr).toBe(0);
    const anthropicRequests = [...provider.requests];
    expect(anthropicRequests).toHaveLength(5);

    // --- Responses: a response.failed that reported usage, then the answer with cached tokens.
    provider.enqueue(
      responsesStream()
        .text("lost")
        .failed("server_error", "The model failed.")
        .usage({ input_tokens: 100, output_tokens: 7, cached_tokens: 20, reasoning_tokens: 5 })
        .build(),
      responsesStream()
        .reasoning("think", "enc")
        .text("ok")
        .usage({ input_tokens: 120, output_tokens: 40, cached_tokens: 100, reasoning_tokens: 30 })
        .build(),
    );
    const r = await run("resp/gpt-test", "go", { RESP_TEST_KEY: "resp-test-key-1234" });
    expect(r.code, r.stderr).toBe(0);
    const responsesRequests = provider.requests.slice(anthropicRequests.length);
    expect(responsesRequests).toHaveLength(2);

    // --- The bill --------------------------------------------------------------------------------
    const zero = { prompt: 0, completion: 0, cacheRead: 0, cacheWrite: 0 };
    const wantAnthropic = anthropicRequests.map(anthropicReported).reduce(add, zero);
    const wantResponses = responsesRequests.map(responsesReported).reduce(add, zero);
    // The independent reading is not trivially zero.
    expect(wantAnthropic).toEqual({ prompt: 4140, completion: 49, cacheRead: 2020, cacheWrite: 2020 });
    expect(wantResponses).toEqual({ prompt: 220, completion: 47, cacheRead: 120, cacheWrite: 0 });

    const live = await metricsJson();
    const byModel = (model: string) => live.rows.filter((row: any) => row.model === model);
    const [ant] = byModel("ant/claude-test");
    const [resp] = byModel("resp/gpt-test");
    expect(ant).toMatchObject({
      ...wantAnthropic,
      modelCalls: 5,
      billedInput: wantAnthropic.prompt - wantAnthropic.cacheRead,
    });
    expect(resp).toMatchObject({
      ...wantResponses,
      modelCalls: 2,
      billedInput: wantResponses.prompt - wantResponses.cacheRead,
    });
    expect(ant.cost).toBeCloseTo(priced(wantAnthropic, ANTHROPIC_PRICE), 12);
    expect(resp.cost).toBeCloseTo(priced(wantResponses, RESPONSES_PRICE), 12);

    expect(await metricsJson(["--rebuild"])).toEqual(live);
  });
});
