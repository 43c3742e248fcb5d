// The openai-responses adapter against the real fake provider (R-PROV-9): the request body, the
// stream (reasoning summaries, encrypted reasoning items, function calls, usage details,
// refusals, incomplete and failed responses, web search items) and the retry policy around it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RetryConfig } from "../../src/config/types.js";
import { ProviderError } from "../../src/provider/errors.js";
import { createAdapter } from "../../src/provider/index.js";
import { buildResponsesBody } from "../../src/provider/responses-request.js";
import { type RetryScheduled, streamWithRetry } from "../../src/provider/retry.js";
import type { NormalizedRequest, ProviderEvent, StreamResult } from "../../src/provider/types.js";
import { FakeProvider } from "../support/fake-provider.js";
import { openaiError } from "../support/openai-script.js";
import { responsesStream } from "../support/responses-script.js";
import { responsesViolations } from "../support/request-rules.js";
import type { Message } from "../../src/vocab/messages.js";
import type { Usage } from "../../src/vocab/usage.js";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
});

const TOOL = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } } },
};

function req(over: Partial<NormalizedRequest> = {}): NormalizedRequest {
  return {
    model: "gpt-5",
    system: "You are tern.",
    tools: [TOOL],
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    maxOutputTokens: 4096,
    images: true,
    cacheKey: "20261130-205000-abcdef",
    ...over,
  };
}

const adapter = () =>
  createAdapter({ api: "openai-responses", baseUrl: fake.baseUrl, apiKey: "sk-k", headers: {} });

async function collect(
  request = req(),
): Promise<{ events: ProviderEvent[]; result?: StreamResult; error?: ProviderError }> {
  const events: ProviderEvent[] = [];
  try {
    for await (const e of adapter().stream(request, {
      signal: new AbortController().signal,
      idleTimeoutMs: 5000,
    }))
      events.push(e);
  } catch (error) {
    if (error instanceof ProviderError) return { events, error };
    throw error;
  }
  const done = events.find((e) => e.type === "done");
  return { events, result: done?.type === "done" ? done.result : undefined };
}

const joined = (events: ProviderEvent[], type: "text_delta" | "reasoning_delta") =>
  events
    .filter((e) => e.type === type)
    .map((e) => (e as { text: string }).text)
    .join("");

describe("openai-responses request (R-PROV-9, R-PROV-10)", () => {
  it("posts to <baseUrl>/responses: stateless, encrypted reasoning, cache key, function tools, effort", async () => {
    fake.enqueue(responsesStream().text("ok").build());
    const { result } = await collect(req({ thinking: "high" }));
    expect(result?.text).toBe("ok");
    const sent = fake.requests[0];
    expect(sent.path).toBe("/v1/responses");
    expect(sent.headers.authorization).toBe("Bearer sk-k");
    expect(sent.body).toMatchObject({
      model: "gpt-5",
      stream: true,
      store: false,
      include: ["reasoning.encrypted_content"],
      prompt_cache_key: "20261130-205000-abcdef",
      instructions: "You are tern.",
      max_output_tokens: 4096,
      reasoning: { effort: "high", summary: "auto" },
      tools: [{ type: "function", ...TOOL, strict: false }],
      input: [{ role: "user", content: [{ type: "input_text", text: "hi" }] }],
    });
    expect(responsesViolations(sent.body)).toEqual([]);
  });

  it("a model known not to reason gets no request for encrypted reasoning (the API refuses it)", () => {
    expect(buildResponsesBody(req(), { encryptedReasoning: false })).not.toHaveProperty("include");
    expect(buildResponsesBody(req(), {}).include).toEqual(["reasoning.encrypted_content"]);
  });

  it("thinking off sends no reasoning field; tool_choice only beside tools; web_search when hosted", () => {
    expect(buildResponsesBody(req({ thinking: "off" })).reasoning).toBeUndefined();
    expect(buildResponsesBody(req()).reasoning).toBeUndefined();
    const none = buildResponsesBody(req({ toolChoice: "none", hostedTools: ["web_search"] }));
    expect(none.tool_choice).toBe("none");
    expect(none.tools).toEqual([{ type: "function", ...TOOL, strict: false }, { type: "web_search" }]);
  });

  it("history as input items: reasoning echoed before its calls, calls by call_id, images in input and outputs", () => {
    const png = "iVBORw0KGgo=";
    const history: Message[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", mediaType: "image/png", data: png },
        ],
      },
      {
        role: "assistant",
        text: "Reading.",
        reasoning: "plan",
        providerItems: [
          {
            api: "openai-responses",
            item: {
              id: "rs_1",
              type: "reasoning",
              summary: [{ type: "summary_text", text: "plan" }],
              encrypted_content: "ENC1",
            },
          },
          { api: "anthropic-messages", item: { type: "server_tool_use", id: "srvtoolu_1" } },
          { api: "openai-responses", item: { id: "rs_2", type: "reasoning", summary: [] } },
        ],
        toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"a.png"}' }],
      },
      {
        role: "tool",
        toolCallId: "call_1",
        toolName: "read_file",
        isError: false,
        content: [
          { type: "text", text: "an image" },
          { type: "image", mediaType: "image/png", data: png },
        ],
      },
    ];
    const body = buildResponsesBody(req({ messages: history }));
    expect(body.input).toEqual([
      {
        role: "user",
        content: [
          { type: "input_text", text: "look" },
          { type: "input_image", image_url: `data:image/png;base64,${png}` },
        ],
      },
      { type: "reasoning", summary: [{ type: "summary_text", text: "plan" }], encrypted_content: "ENC1" },
      {
        type: "message",
        role: "assistant",
        content: [{ type: "output_text", text: "Reading." }],
      },
      { type: "function_call", call_id: "call_1", name: "read_file", arguments: '{"path":"a.png"}' },
      {
        type: "function_call_output",
        call_id: "call_1",
        output: [
          { type: "input_text", text: "an image" },
          { type: "input_image", image_url: `data:image/png;base64,${png}` },
        ],
      },
    ]);
    expect(responsesViolations(body)).toEqual([]);
    // Without image input, placeholders; without tools (a side question), calls and results as text.
    const plain = buildResponsesBody(req({ messages: history, images: false, tools: [] }));
    expect(responsesViolations(plain)).toEqual([]);
    expect(JSON.stringify(plain.input)).toContain("[tool call call_1: read_file");
    expect(JSON.stringify(plain.input)).not.toContain("input_image");
    expect(JSON.stringify(plain.input)).not.toContain("ENC1");
  });
});

describe("openai-responses stream (R-PROV-9)", () => {
  it("reasoning summaries stream as reasoning, items kept with encrypted content, calls and usage", async () => {
    fake.enqueue(
      responsesStream()
        .reasoning("Plan: read the file.", "ENC-A", ["Plan: ", "read the file."])
        .text("Reading.", ["Read", "ing."])
        .functionCall({
          callId: "call_a",
          name: "read_file",
          args: { path: "x" },
          chunks: ['{"path"', ':"x"}'],
        })
        .functionCall({ callId: "call_b", name: "read_file", args: { path: "y" } })
        .usage({ input_tokens: 1200, output_tokens: 300, cached_tokens: 1000, reasoning_tokens: 200 })
        .build(),
    );
    const { events, result } = await collect();
    expect(joined(events, "reasoning_delta")).toBe("Plan: read the file.");
    expect(joined(events, "text_delta")).toBe("Reading.");
    expect(events.filter((e) => e.type === "tool_call_start")).toEqual([
      { type: "tool_call_start", index: 0, id: "call_a", name: "read_file" },
      { type: "tool_call_start", index: 1, id: "call_b", name: "read_file" },
    ]);
    expect(result?.toolCalls).toEqual([
      { id: "call_a", name: "read_file", arguments: '{"path":"x"}' },
      { id: "call_b", name: "read_file", arguments: '{"path":"y"}' },
    ]);
    expect(result?.finish).toBe("tool_calls");
    expect(result?.providerItems).toEqual([
      {
        api: "openai-responses",
        item: {
          id: "rs_0",
          type: "reasoning",
          summary: [{ type: "summary_text", text: "Plan: read the file." }],
          encrypted_content: "ENC-A",
        },
      },
    ]);
    // input_tokens includes the cached ones; output_tokens includes reasoning (R-PROV-6).
    expect(result?.usage).toEqual({ prompt: 1200, completion: 300, cacheRead: 1000, cacheWrite: 0 });
  });

  it("a refusal is shown as the answer; max_output_tokens → length; other incomplete reasons kept", async () => {
    fake.enqueue(responsesStream().text("I can't help with that.", undefined, true).build());
    const refused = await collect();
    expect(joined(refused.events, "text_delta")).toBe("I can't help with that.");
    expect(refused.result?.text).toBe("I can't help with that.");

    fake.enqueue(responsesStream().text("cut").incomplete("max_output_tokens").build());
    const cut = await collect();
    expect(cut.result?.finish).toBe("length");
    expect(cut.result?.rawFinish).toBe("max_output_tokens");
    fake.enqueue(responsesStream().text("x").incomplete("content_filter").build());
    expect((await collect()).result?.finish).toBe("content_filter");
  });

  it("web_search_call items are shown, kept, counted as searches and echoed without their ids", async () => {
    fake.enqueue(
      responsesStream()
        .webSearch("tern release notes")
        .text("Found it.")
        .usage({ input_tokens: 50, output_tokens: 9 })
        .build(),
    );
    const { events, result } = await collect(req({ hostedTools: ["web_search"] }));
    expect(events.filter((e) => e.type === "hosted_tool")).toEqual([
      { type: "hosted_tool", name: "web_search", status: "started", detail: "" },
      { type: "hosted_tool", name: "web_search", status: "done", detail: "tern release notes" },
    ]);
    expect(result?.usage).toEqual({ prompt: 50, completion: 9, cacheRead: 0, cacheWrite: 0, webSearches: 1 });
    const echoed = buildResponsesBody(
      req({
        hostedTools: ["web_search"],
        messages: [
          { role: "user", content: [{ type: "text", text: "q" }] },
          {
            role: "assistant",
            text: result!.text,
            reasoning: "",
            toolCalls: [],
            providerItems: result!.providerItems,
          },
          { role: "user", content: [{ type: "text", text: "more" }] },
        ],
      }),
    );
    expect((echoed.input as any[])[1]).toEqual({
      type: "web_search_call",
      status: "completed",
      action: { type: "search", query: "tern release notes" },
    });
    expect(responsesViolations(echoed)).toEqual([]);
  });

  it("a stream without response.completed is incomplete (retryable); an unparsable frame too", async () => {
    const frames = responsesStream().text("partial").build().frames!;
    fake.enqueue({ status: 200, frames: frames.slice(0, -1) });
    const cut = await collect();
    expect(cut.error?.errorClass).toBe("incomplete_stream");
    expect(cut.error?.retryable).toBe(true);
    fake.enqueue({ status: 200, frames: ["event: response.created\ndata: {not json\n\n"] });
    expect((await collect()).error?.errorClass).toBe("incomplete_stream");
  });

  it("error and response.failed events are classified like HTTP errors", async () => {
    fake.enqueue(responsesStream().text("a").errorEvent("server_error", "The server had an error").build());
    const server = await collect();
    expect(server.error).toMatchObject({ errorClass: "server", retryable: true });
    fake.enqueue(responsesStream().text("a").failed("rate_limit_exceeded", "Rate limit reached").build());
    expect((await collect()).error).toMatchObject({ errorClass: "rate_limit", retryable: true });
    fake.enqueue(
      responsesStream().failed("server_error", "boom").usage({ input_tokens: 7, output_tokens: 0 }).build(),
    );
    const failed = await collect();
    expect(failed.error).toMatchObject({ errorClass: "server", retryable: true });
    expect(failed.error?.usage).toEqual({ prompt: 7, completion: 0, cacheRead: 0, cacheWrite: 0 });
    fake.enqueue(
      responsesStream()
        .errorEvent("context_length_exceeded", "Your input exceeds the context window")
        .build(),
    );
    expect((await collect()).error).toMatchObject({ errorClass: "context_overflow", retryable: false });
    fake.enqueue(responsesStream().failed("invalid_prompt", "flagged").build());
    expect((await collect()).error).toMatchObject({ errorClass: "invalid_prompt", retryable: false });
  });
});

describe("retry around openai-responses (R-RETRY)", () => {
  const retry: RetryConfig = {
    maxRetries: 3,
    baseDelaySeconds: 2,
    factor: 2,
    jitter: 0,
    maxDelaySeconds: 30,
  };
  function run(request = req()) {
    const log = {
      sleeps: [] as number[],
      retries: [] as RetryScheduled[],
      usages: [] as Usage[],
      discards: 0,
    };
    const promise = streamWithRetry(adapter(), request, {
      retry,
      signal: new AbortController().signal,
      idleTimeoutMs: 5000,
      deadline: null,
      onEvent: () => {},
      onAttemptUsage: (u) => log.usages.push(u),
      onDiscard: () => log.discards++,
      onRetry: (r) => log.retries.push(r),
      sleep: async (ms) => {
        log.sleeps.push(ms);
      },
      random: () => 0.5,
    });
    return { promise, log };
  }

  it("429 with retry-after, an in-stream server error and a truncated stream are retried; usage of each counts", async () => {
    const truncated = responsesStream().text("half").build().frames!;
    fake.enqueue(
      openaiError(
        429,
        { error: { message: "Rate limit reached", type: "tokens", code: "rate_limit_exceeded" } },
        { "retry-after": "7" },
      ),
      responsesStream()
        .text("partial")
        .failed("server_error", "upstream died")
        .usage({ input_tokens: 5, output_tokens: 1 })
        .build(),
      { status: 200, frames: truncated.slice(0, -1) },
      responsesStream().text("done").usage({ input_tokens: 20, output_tokens: 3 }).build(),
    );
    const { promise, log } = run();
    const result = await promise;
    expect(result.text).toBe("done");
    expect(fake.requests).toHaveLength(4);
    expect(log.sleeps[0]).toBe(7000);
    expect(log.retries.map((r) => r.reason)).toEqual(["rate_limit", "server", "incomplete_stream"]);
    expect(log.discards).toBe(2);
    expect(log.usages).toEqual([
      { prompt: 5, completion: 1, cacheRead: 0, cacheWrite: 0 },
      { prompt: 20, completion: 3, cacheRead: 0, cacheWrite: 0 },
    ]);
  });

  it("overflow is not retried: it surfaces as context_overflow for compaction", async () => {
    fake.enqueue(
      openaiError(400, {
        error: {
          message: "Your input exceeds the context window of this model.",
          type: "invalid_request_error",
          code: "context_length_exceeded",
        },
      }),
    );
    const { promise } = run();
    await expect(promise).rejects.toMatchObject({ errorClass: "context_overflow" });
    expect(fake.requests).toHaveLength(1);
  });
});
