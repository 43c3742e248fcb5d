// Reasoning models end to end through the built CLI (R-PROV-9, R-PROV-10, R-PROV-11): a GPT-5
// session over the Responses API and a Claude session with thinking both run multi-round tool
// loops with provider-run web search, survive a SIGKILL mid-tool, resume with requests the APIs
// accept, and the ledger holds exactly what the fake provider reported.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicViolations, responsesViolations } from "../support/request-rules.js";
import { anthropicStream } from "../support/anthropic-script.js";
import { cliEnv, jsonEvents, TERN_BIN } from "../support/cli.js";
import { openaiToolCalls } from "../support/openai-script.js";
import { responsesStream } from "../support/responses-script.js";
import { type E2E, useE2E } from "./tools-support.js";

const e = useE2E({
  config: ({ provider }) => ({
    retry: { maxRetries: 2, baseDelaySeconds: 0.01, jitter: 0 },
    parallelTools: false,
    models: {
      "openai/gpt-5": { hostedTools: ["web_search"] },
      "anthropic/claude-sonnet-4-5": { hostedTools: ["web_search"], maxOutputTokens: 32000 },
    },
    providers: { openai: { baseUrl: provider.baseUrl }, anthropic: { baseUrl: provider.baseUrl } },
  }),
});

const ENV = { OPENAI_API_KEY: "sk-test-openai", ANTHROPIC_API_KEY: "sk-ant-test" };

function recordFile(e: E2E): string {
  const root = join(e.dirs.home, "sessions");
  const files = readdirSync(root).flatMap((ws) =>
    readdirSync(join(root, ws)).map((id) => join(root, ws, id, "record.jsonl")),
  );
  expect(files).toHaveLength(1);
  return files[0];
}

/** Starts `tern run`, SIGKILLs it once the record shows `tool_start` for `callId`. */
async function runUntilToolStart(e: E2E, args: string[], callId: string): Promise<void> {
  const child = spawn(process.execPath, [TERN_BIN, ...args], {
    cwd: e.dirs.workspace,
    env: cliEnv(e.dirs.home, ENV),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on("exit", (_c, s) => resolve(s)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    let record = "";
    try {
      record = readFileSync(recordFile(e), "utf8");
    } catch {}
    const started = record
      .split("\n")
      .some((line) => line.includes(`"type":"tool_start"`) && line.includes(`"id":"${callId}"`));
    if (started) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`tool ${callId} never started:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill("SIGKILL");
  expect(await exited).toBe("SIGKILL");
}

async function metrics(e: E2E): Promise<{ rows: any[]; totals: any[] }> {
  const out = await e.run(["metrics", "--json"], ENV);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

const sum = (usages: { prompt: number; completion: number; cacheRead: number }[]) =>
  usages.reduce(
    (a, u) => ({
      prompt: a.prompt + u.prompt,
      completion: a.completion + u.completion,
      cacheRead: a.cacheRead + u.cacheRead,
    }),
    { prompt: 0, completion: 0, cacheRead: 0 },
  );

describe("a GPT-5 session over the Responses API", () => {
  it("runs a multi-round tool loop with reasoning echoed, resumes after SIGKILL legally, bills exactly", async () => {
    writeFileSync(join(e.dirs.workspace, "notes.txt"), "alpha\nbeta\n");
    e.provider.enqueue(
      responsesStream()
        .reasoning("Plan: search, then run.", "ENC-1", ["Plan: search, ", "then run."])
        .webSearch("node 20 release date")
        .functionCall({ callId: "call_1", name: "bash", args: { command: "echo from-bash" } })
        .usage({ input_tokens: 1000, output_tokens: 200, reasoning_tokens: 150 })
        .build(),
      responsesStream()
        .reasoning("Now read notes.", "ENC-2")
        .functionCall({ callId: "call_2", name: "read_file", args: { path: "notes.txt" } })
        .usage({ input_tokens: 1500, output_tokens: 100, cached_tokens: 1000, reasoning_tokens: 60 })
        .build(),
      responsesStream()
        .text("Done: alpha, beta.")
        .usage({ input_tokens: 1800, output_tokens: 20, cached_tokens: 1400 })
        .build(),
    );
    const first = await e.run(
      ["run", "--json", "--yes", "--model", "openai/gpt-5", "--thinking", "high", "do it"],
      ENV,
    );
    expect(first.code, first.stderr).toBe(0);
    const events = jsonEvents(first.stdout);
    const sessionId = events.find((x) => x.type === "session").id;
    expect(
      events
        .filter((x) => x.type === "reasoning_delta")
        .map((x) => x.text)
        .join(""),
    ).toContain("Plan: search");
    expect(events.find((x) => x.type === "hosted_tool" && x.status === "done")).toMatchObject({
      name: "web_search",
      detail: "node 20 release date",
    });
    const end = events.find((x) => x.type === "turn_end");
    expect(end).toMatchObject({
      stop_reason: "completed",
      rounds: 3,
      tool_calls: 2,
      usage: { prompt: 4300, completion: 320, cache_read: 2400, cache_write: 0 },
    });
    // gpt-5: (4300 − 2400) × 1.25 + 2400 × 0.125 + 320 × 10 per million, + one search at $10 / 1000.
    const cost = (1900 * 1.25 + 2400 * 0.125 + 320 * 10) / 1e6 + 0.01;
    expect(end.cost).toBeCloseTo(cost, 12);

    const reqs = e.provider.requests;
    expect(reqs.map((r) => r.path)).toEqual(["/v1/responses", "/v1/responses", "/v1/responses"]);
    for (const r of reqs) {
      expect(responsesViolations(r.body)).toEqual([]);
      expect(r.body.prompt_cache_key).toBe(sessionId);
      expect(r.body.reasoning).toEqual({ effort: "high", summary: "auto" });
      expect(r.body.include).toEqual(["reasoning.encrypted_content"]);
      expect(r.body.tools.at(-1)).toEqual({ type: "web_search" });
    }
    const kinds = (input: any[]) => input.map((i) => i.type ?? i.role);
    expect(kinds(reqs[1].body.input)).toEqual([
      "user",
      "reasoning",
      "web_search_call",
      "function_call",
      "function_call_output",
    ]);
    expect(reqs[1].body.input[1].encrypted_content).toBe("ENC-1");
    expect(reqs[1].body.input[4]).toMatchObject({ call_id: "call_1" });
    expect(reqs[1].body.input[4].output).toContain("from-bash");
    expect(reqs[2].body.input.slice(5).map((i: any) => i.encrypted_content ?? i.type)).toEqual([
      "ENC-2",
      "function_call",
      "function_call_output",
    ]);
    // The record keeps the reasoning items for the next resume.
    const record = readFileSync(recordFile(e), "utf8");
    expect(record).toContain('"providerItems"');
    expect(record).toContain("ENC-1");

    // Turn 2 is killed while its tool runs; the resume answers the call and sends a legal request.
    e.provider.enqueue(
      responsesStream()
        .reasoning("Wait a bit.", "ENC-3")
        .functionCall({ callId: "call_s", name: "bash", args: { command: "sleep 30" } })
        .usage({ input_tokens: 2000, output_tokens: 40, cached_tokens: 1800 })
        .build(),
    );
    await runUntilToolStart(e, ["run", "--json", "--yes", "--continue", "wait"], "call_s");
    e.provider.enqueue(
      responsesStream()
        .text("Resumed.")
        .usage({ input_tokens: 2100, output_tokens: 5, cached_tokens: 2000 })
        .build(),
    );
    const resumed = await e.run(["run", "--json", "--yes", "--continue", "go on"], ENV);
    expect(resumed.code, resumed.stderr).toBe(0);
    const last = e.provider.requests.at(-1)!;
    expect(last.path).toBe("/v1/responses");
    expect(responsesViolations(last.body)).toEqual([]);
    const output = last.body.input.find(
      (i: any) => i.type === "function_call_output" && i.call_id === "call_s",
    );
    expect(output.output).toContain("interrupted");
    expect(
      last.body.input.filter((i: any) => i.type === "reasoning").map((i: any) => i.encrypted_content),
    ).toEqual(["ENC-1", "ENC-2", "ENC-3"]);

    // The ledger holds exactly what the provider reported, the killed turn included.
    const reported = [
      { prompt: 1000, completion: 200, cacheRead: 0 },
      { prompt: 1500, completion: 100, cacheRead: 1000 },
      { prompt: 1800, completion: 20, cacheRead: 1400 },
      { prompt: 2000, completion: 40, cacheRead: 1800 },
      { prompt: 2100, completion: 5, cacheRead: 2000 },
    ];
    const ledger = await metrics(e);
    expect(ledger.rows).toHaveLength(3);
    expect(sum(ledger.rows)).toEqual(sum(reported));
    expect(ledger.rows[0].cost).toBeCloseTo(cost, 12);
  });

  it("an old record written through chat resumes over Responses with legal input", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "call_old", name: "bash", args: { command: "echo old" } }]),
      responsesStream().text("Via chat, then responses.").build(),
    );
    // gpt-4.1 speaks chat; the turn stops after its one allowed call, leaving a call and its result.
    e.provider.requests.length = 0;
    const chat = await e.run(
      ["run", "--json", "--yes", "--model", "openai/gpt-4.1", "--max-model-calls", "1", "x"],
      ENV,
    );
    expect(e.provider.requests[0].path).toBe("/v1/chat/completions");
    expect(jsonEvents(chat.stdout).find((x) => x.type === "turn_end").stop_reason).toBe(
      "model_call_limit_reached",
    );
    const resumed = await e.run(
      ["run", "--json", "--yes", "--continue", "--model", "openai/gpt-5", "go on"],
      ENV,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const last = e.provider.requests.at(-1)!;
    expect(last.path).toBe("/v1/responses");
    expect(responsesViolations(last.body)).toEqual([]);
    expect(last.body.input.map((i: any) => i.type ?? i.role)).toEqual([
      "user",
      "function_call",
      "function_call_output",
      "user",
    ]);
  });
});

describe("fork and export of a Responses session", () => {
  it("a fork resumes with the parent's reasoning items; export keeps them", async () => {
    e.provider.enqueue(
      responsesStream()
        .reasoning("look", "ENC-F1")
        .functionCall({ callId: "call_f", name: "bash", args: { command: "echo f" } })
        .build(),
      responsesStream().text("forked parent done").build(),
    );
    const first = await e.run(["run", "--json", "--yes", "--model", "openai/gpt-5", "go"], ENV);
    expect(first.code, first.stderr).toBe(0);
    const parent = jsonEvents(first.stdout).find((x) => x.type === "session").id;
    const exported = await e.run(["export", parent, "--format", "json"], ENV);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain("ENC-F1");
    const fork = await e.run(["fork", parent], ENV);
    expect(fork.code, fork.stderr).toBe(0);
    const child = fork.stdout.trim();
    e.provider.enqueue(responsesStream().text("in the fork").build());
    const resumed = await e.run(["run", "--json", "--yes", "--resume", child, "more"], ENV);
    expect(resumed.code, resumed.stderr).toBe(0);
    const last = e.provider.requests.at(-1)!;
    expect(last.path).toBe("/v1/responses");
    expect(last.body.prompt_cache_key).toBe(child);
    expect(responsesViolations(last.body)).toEqual([]);
    expect(last.body.input.map((i: any) => i.type ?? i.role)).toEqual([
      "user",
      "reasoning",
      "function_call",
      "function_call_output",
      "message",
      "user",
    ]);
  });
});

describe("a Claude session with thinking", () => {
  it("runs a multi-round tool loop with thinking and web search echoed, resumes after SIGKILL legally, bills exactly", async () => {
    writeFileSync(join(e.dirs.workspace, "notes.txt"), "alpha\n");
    const search = (id: string, query: string) => [
      `event: content_block_start\ndata: ${JSON.stringify({ type: "content_block_start", index: 1, content_block: { type: "server_tool_use", id, name: "web_search", input: {} } })}\n\n`,
      `event: content_block_delta\ndata: ${JSON.stringify({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: JSON.stringify({ query }) } })}\n\n`,
      `event: content_block_stop\ndata: ${JSON.stringify({ type: "content_block_stop", index: 1 })}\n\n`,
      `event: content_block_start\ndata: ${JSON.stringify({ type: "content_block_start", index: 2, content_block: { type: "web_search_tool_result", tool_use_id: id, content: [{ type: "web_search_result", url: "https://nodejs.org", title: "Node", encrypted_content: "EC" }] } })}\n\n`,
      `event: content_block_stop\ndata: ${JSON.stringify({ type: "content_block_stop", index: 2 })}\n\n`,
    ];
    const round1 = anthropicStream().thinking("Search first.", "SIG-1");
    for (const frame of search("srvtoolu_1", "node lts")) round1.raw(frame);
    // Block indexes continue after the two search blocks.
    round1.raw(
      `event: content_block_start\ndata: ${JSON.stringify({ type: "content_block_start", index: 3, content_block: { type: "tool_use", id: "toolu_1", name: "bash", input: {} } })}\n\n`,
    );
    round1.raw(
      `event: content_block_delta\ndata: ${JSON.stringify({ type: "content_block_delta", index: 3, delta: { type: "input_json_delta", partial_json: '{"command":"echo one"}' } })}\n\n`,
    );
    round1.raw(
      `event: content_block_stop\ndata: ${JSON.stringify({ type: "content_block_stop", index: 3 })}\n\n`,
    );
    e.provider.enqueue(
      round1
        .stop("tool_use")
        .usage({
          input_tokens: 100,
          output_tokens: 80,
          cache_creation_input_tokens: 900,
          cache_read_input_tokens: 0,
          server_tool_use: { web_search_requests: 1 },
        } as any)
        .build(),
      anthropicStream()
        .thinking("Read notes.", "SIG-2")
        .toolUse({ id: "toolu_2", name: "read_file", input: { path: "notes.txt" } })
        .stop("tool_use")
        .usage({
          input_tokens: 50,
          output_tokens: 30,
          cache_read_input_tokens: 1000,
          cache_creation_input_tokens: 0,
        })
        .build(),
      anthropicStream()
        .thinking("Answer.", "SIG-3")
        .text("alpha")
        .usage({
          input_tokens: 60,
          output_tokens: 10,
          cache_read_input_tokens: 1050,
          cache_creation_input_tokens: 0,
        })
        .build(),
    );
    const first = await e.run(
      ["run", "--json", "--yes", "--model", "anthropic/claude-sonnet-4-5", "do it"],
      ENV,
    );
    expect(first.code, first.stderr).toBe(0);
    const end = jsonEvents(first.stdout).find((x) => x.type === "turn_end");
    expect(end).toMatchObject({
      stop_reason: "completed",
      rounds: 3,
      usage: { prompt: 3160, completion: 120, cache_read: 2050, cache_write: 900 },
    });
    // (210 × 3 + 2050 × 0.3 + 900 × 3.75 + 120 × 15) / 1e6 + one search at $10 / 1000.
    const cost = (210 * 3 + 2050 * 0.3 + 900 * 3.75 + 120 * 15) / 1e6 + 0.01;
    expect(end.cost).toBeCloseTo(cost, 12);

    const reqs = e.provider.requests;
    expect(reqs.map((r) => r.path)).toEqual(["/v1/messages", "/v1/messages", "/v1/messages"]);
    for (const r of reqs) {
      expect(anthropicViolations(r.body)).toEqual([]);
      // medium with max_tokens 32000: half of it, under the 16384 target.
      expect(r.body.thinking).toEqual({ type: "enabled", budget_tokens: 16000 });
      expect(r.body.max_tokens).toBe(32000);
      expect(r.body).not.toHaveProperty("temperature");
      expect(r.body.tools.at(-1)).toEqual({ type: "web_search_20250305", name: "web_search" });
    }
    const assistant1 = reqs[1].body.messages[1].content;
    expect(assistant1.map((b: any) => b.type)).toEqual([
      "thinking",
      "server_tool_use",
      "web_search_tool_result",
      "tool_use",
    ]);
    expect(assistant1[0]).toEqual({ type: "thinking", thinking: "Search first.", signature: "SIG-1" });
    expect(assistant1[1].input).toEqual({ query: "node lts" });

    e.provider.enqueue(
      anthropicStream()
        .thinking("Sleep.", "SIG-4")
        .toolUse({ id: "toolu_s", name: "bash", input: { command: "sleep 30" } })
        .stop("tool_use")
        .usage({
          input_tokens: 70,
          output_tokens: 20,
          cache_read_input_tokens: 1100,
          cache_creation_input_tokens: 0,
        })
        .build(),
    );
    await runUntilToolStart(e, ["run", "--json", "--yes", "--continue", "wait"], "toolu_s");
    e.provider.enqueue(
      anthropicStream()
        .thinking("Resume.", "SIG-5")
        .text("Resumed.")
        .usage({
          input_tokens: 80,
          output_tokens: 5,
          cache_read_input_tokens: 1200,
          cache_creation_input_tokens: 0,
        })
        .build(),
    );
    const resumed = await e.run(["run", "--json", "--yes", "--continue", "go on"], ENV);
    expect(resumed.code, resumed.stderr).toBe(0);
    const last = e.provider.requests.at(-1)!;
    expect(anthropicViolations(last.body)).toEqual([]);
    const blocks = last.body.messages.flatMap((m: any) => m.content);
    expect(blocks.find((b: any) => b.type === "tool_result" && b.tool_use_id === "toolu_s")).toBeDefined();
    expect(blocks.filter((b: any) => b.type === "thinking").map((b: any) => b.signature)).toEqual([
      "SIG-1",
      "SIG-2",
      "SIG-3",
      "SIG-4",
    ]);

    const ledger = await metrics(e);
    expect(ledger.rows).toHaveLength(3);
    expect(sum(ledger.rows)).toEqual({
      prompt: 3160 + 1170 + 1280,
      completion: 120 + 20 + 5,
      cacheRead: 2050 + 1100 + 1200,
    });
    expect(ledger.rows[0].cost).toBeCloseTo(cost, 12);
  });

  it("--thinking with a bad value: one line on stderr, exit 2, nothing sent", async () => {
    const out = await e.run(
      ["run", "--model", "anthropic/claude-sonnet-4-5", "--thinking", "max", "hi"],
      ENV,
    );
    expect(out.code).toBe(2);
    expect(out.stderr.trim().split("\n")).toEqual([
      "tern: --thinking: must be off, low, medium, high, got 'max'",
    ]);
    expect(e.provider.requests).toHaveLength(0);
  });
});
