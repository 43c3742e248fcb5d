// The Gemini adapter (R-PROV-12) against a real HTTP server on 127.0.0.1 speaking Gemini's SSE:
// what tern sends (path, key header, body), what it makes of recorded streams (vercel/ai fixtures,
// test/fixtures/providers/gemini-recorded.json), finish reasons, usage and error classes.
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/provider/errors.js";
import { createGeminiAdapter } from "../../src/provider/gemini.js";
import { FOREIGN_CALL_SIGNATURE } from "../../src/provider/gemini-request.js";
import { streamWithRetry } from "../../src/provider/retry.js";
import type { NormalizedRequest, ProviderEvent, StreamResult } from "../../src/provider/types.js";
import type { AssistantMessage } from "../../src/vocab/messages.js";
import { FakeProvider } from "../support/fake-provider.js";

const recorded = JSON.parse(
  readFileSync(new URL("../fixtures/providers/gemini-recorded.json", import.meta.url), "utf8"),
);
const KEY = "AIzaFakeGeminiKey0123456789abcdefghij";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
});

/** Google ends each frame with CRLF CRLF. */
const frames = (chunks: unknown[]) => chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`);

const base: NormalizedRequest = {
  model: "gemini-3-pro-preview",
  system: "You are tern.",
  tools: [{ name: "weather", description: "Weather", parameters: { type: "object", properties: {} } }],
  messages: [{ role: "user", content: [{ type: "text", text: "weather in SF?" }] }],
  images: true,
};

function adapter() {
  return createGeminiAdapter({
    api: "google-gemini",
    baseUrl: `${fake.url}/v1beta`,
    apiKey: KEY,
    headers: {},
    auth: { kind: "key-header", header: "x-goog-api-key" },
  });
}

async function run(
  req: NormalizedRequest = base,
): Promise<{ events: ProviderEvent[]; result: StreamResult }> {
  const events: ProviderEvent[] = [];
  for await (const e of adapter().stream(req, { signal: new AbortController().signal, idleTimeoutMs: 5000 }))
    events.push(e);
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error("no done event");
  return { events: events.slice(0, -1), result: done.result };
}

function candidate(parts: object[], finishReason?: string, usage?: object) {
  return {
    candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}), index: 0 }],
    ...(usage ? { usageMetadata: usage } : {}),
  };
}

describe("gemini adapter: the request", () => {
  it("posts to models/<model>:streamGenerateContent?alt=sse with the key in x-goog-api-key only", async () => {
    fake.enqueue({ frames: frames(recorded.textWithTrailingSignature) });
    await run({ ...base, maxOutputTokens: 1000, thinking: "low" });
    const sent = fake.requests[0];
    expect(sent.path).toBe("/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse");
    expect(sent.headers["x-goog-api-key"]).toBe(KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.path).not.toContain(KEY);
    expect(sent.body).toEqual({
      contents: [{ role: "user", parts: [{ text: "weather in SF?" }] }],
      systemInstruction: { parts: [{ text: "You are tern." }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: "weather",
              description: "Weather",
              parametersJsonSchema: { type: "object", properties: {} },
            },
          ],
        },
      ],
      generationConfig: {
        maxOutputTokens: 1000,
        thinkingConfig: { includeThoughts: true, thinkingLevel: "low" },
      },
    });
  });

  it("sends thought signatures back on the part that carried them, and results by name and order", async () => {
    fake.enqueue({ frames: frames(recorded.signedToolCall) });
    const { result } = await run();
    expect(result.toolCalls).toHaveLength(1);
    const assistant: AssistantMessage = {
      role: "assistant",
      text: result.text,
      reasoning: result.reasoning,
      toolCalls: result.toolCalls,
      ...(result.providerItems ? { providerItems: result.providerItems } : {}),
    } as AssistantMessage;
    fake.enqueue({ frames: frames(recorded.textWithTrailingSignature) });
    const second = await run({
      ...base,
      messages: [
        ...base.messages,
        assistant,
        {
          role: "tool",
          toolCallId: result.toolCalls[0].id,
          toolName: "weather",
          content: [{ type: "text", text: "sunny" }],
          isError: false,
        },
      ],
    });
    expect(fake.requests[1].body.contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [
          {
            functionCall: { name: "weather", args: { location: "San Francisco" } },
            thoughtSignature: recorded.signedToolCall[0].candidates[0].content.parts[0].thoughtSignature,
          },
        ],
      },
      { role: "user", parts: [{ functionResponse: { name: "weather", response: { output: "sunny" } } }] },
    ]);
    // A text answer whose signature came on a last empty part keeps that part as it came.
    const signature = recorded.textWithTrailingSignature[2].candidates[0].content.parts[0].thoughtSignature;
    expect(second.result.providerItems?.map((p) => p.item)).toEqual([
      { text: 'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.' },
      { text: "", thoughtSignature: signature },
    ]);
  });

  it("gives a call from another provider Google's stand-in signature, and images as inlineData", async () => {
    fake.enqueue({ frames: frames(recorded.textWithTrailingSignature) });
    await run({
      ...base,
      messages: [
        { role: "user", content: [{ type: "image", mediaType: "image/png", data: "iVBORw0KGgo=" }] },
        {
          role: "assistant",
          text: "",
          reasoning: "",
          toolCalls: [{ id: "toolu_1", name: "weather", arguments: '{"location":"Oslo"}' }],
        } as AssistantMessage,
        { role: "tool", toolCallId: "toolu_1", toolName: "weather", content: [], isError: true },
      ],
    });
    const contents = fake.requests[0].body.contents;
    expect(contents[0].parts).toEqual([{ inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" } }]);
    expect(contents[1].parts[0].thoughtSignature).toBe(FOREIGN_CALL_SIGNATURE);
    expect(contents[2].parts[0].functionResponse).toEqual({ name: "weather", response: { error: "" } });
  });
});

describe("gemini adapter: no tools defined", () => {
  it("sends earlier calls and results as text, since function parts need declarations", async () => {
    fake.enqueue({ frames: frames(recorded.textWithTrailingSignature) });
    await run({
      ...base,
      tools: [],
      messages: [
        ...base.messages,
        {
          role: "assistant",
          text: "Checking.",
          reasoning: "",
          toolCalls: [{ id: "c1", name: "weather", arguments: '{"location":"Oslo"}' }],
        } as AssistantMessage,
        {
          role: "tool",
          toolCallId: "c1",
          toolName: "weather",
          content: [{ type: "text", text: "rain" }],
          isError: false,
        },
      ],
    });
    const body = fake.requests[0].body;
    expect(body.tools).toBeUndefined();
    expect(body.contents.slice(1)).toEqual([
      {
        role: "model",
        parts: [{ text: "Checking." }, { text: '[tool call c1: weather {"location":"Oslo"}]' }],
      },
      { role: "user", parts: [{ text: "[result of tool call c1 (weather)]" }, { text: "rain" }] },
    ]);
  });
});

describe("gemini adapter: streams", () => {
  it("reads a recorded text stream: text, usage with thoughts as output, STOP", async () => {
    fake.enqueue({ frames: frames(recorded.textWithTrailingSignature) });
    const { events, result } = await run();
    expect(result.text).toBe(
      'There are **3** "r"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.',
    );
    expect(result.finish).toBe("stop");
    expect(result.rawFinish).toBe("STOP");
    expect(result.usage).toEqual({ prompt: 9, completion: 29 + 256, cacheRead: 0, cacheWrite: 0 });
    expect(events.filter((e) => e.type === "usage")).toHaveLength(2);
  });

  it("reads thoughts, several calls in one response, cached tokens as cache reads", async () => {
    fake.enqueue({
      frames: frames([
        candidate([{ text: "Let me think", thought: true }]),
        candidate([{ text: " twice.", thought: true, thoughtSignature: "sig-thought" }]),
        candidate([
          { functionCall: { name: "read", args: { path: "a" } }, thoughtSignature: "sig-call" },
          { functionCall: { name: "read", args: { path: "b" } } },
        ]),
        candidate([], "STOP", {
          promptTokenCount: 1000,
          cachedContentTokenCount: 800,
          candidatesTokenCount: 20,
          thoughtsTokenCount: 30,
        }),
      ]),
    });
    const { events, result } = await run();
    expect(result.reasoning).toBe("Let me think twice.");
    expect(result.finish).toBe("tool_calls");
    expect(result.toolCalls.map((c) => [c.name, c.arguments, c.extra])).toEqual([
      ["read", '{"path":"a"}', { gemini: { thoughtSignature: "sig-call" } }],
      ["read", '{"path":"b"}', { gemini: {} }],
    ]);
    expect(new Set(result.toolCalls.map((c) => c.id)).size).toBe(2);
    expect(result.providerItems?.map((p) => p.item)).toEqual([
      { text: "Let me think twice.", thought: true, thoughtSignature: "sig-thought" },
    ]);
    expect(result.usage).toEqual({ prompt: 1000, completion: 50, cacheRead: 800, cacheWrite: 0 });
    expect(events.filter((e) => e.type === "tool_call_start")).toHaveLength(2);
  });

  it.each([
    ["MAX_TOKENS", "length"],
    ["SAFETY", "content_filter"],
    ["RECITATION", "content_filter"],
    ["BLOCKLIST", "content_filter"],
    ["PROHIBITED_CONTENT", "content_filter"],
    ["MALFORMED_FUNCTION_CALL", "other:MALFORMED_FUNCTION_CALL"],
    ["OTHER", "other:OTHER"],
    ["SPII", "other:SPII"],
    ["FINISH_REASON_UNSPECIFIED", "other:FINISH_REASON_UNSPECIFIED"],
  ])("maps finish reason %s to %s", async (raw, finish) => {
    fake.enqueue({ frames: frames([candidate([{ text: "x" }], raw)]) });
    const { result } = await run();
    expect(result.finish).toBe(finish);
    expect(result.rawFinish).toBe(raw);
  });

  it("takes a blocked prompt (no candidates) as content filtered", async () => {
    fake.enqueue({
      frames: frames([
        { promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: 7 } },
      ]),
    });
    const { result } = await run();
    expect(result.finish).toBe("content_filter");
    expect(result.rawFinish).toBe("PROHIBITED_CONTENT");
  });

  it("calls a stream that ends without a finish reason incomplete (retryable)", async () => {
    fake.enqueue({ frames: frames([candidate([{ text: "half" }])]) });
    const error = await run().catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ errorClass: "incomplete_stream", retryable: true });
  });
});

describe("gemini adapter: errors", () => {
  it("retries a 429 RESOURCE_EXHAUSTED after the RetryInfo delay", async () => {
    fake.enqueue(
      { status: 429, body: JSON.stringify(recorded.rateLimited) },
      { frames: frames(recorded.textWithTrailingSignature) },
    );
    const waits: number[] = [];
    const result = await streamWithRetry(adapter(), base, {
      retry: { maxRetries: 2, baseDelaySeconds: 0.01, factor: 2, jitter: 0, maxDelaySeconds: 0.1 },
      signal: new AbortController().signal,
      idleTimeoutMs: 5000,
      deadline: null,
      onEvent: () => {},
      onDiscard: () => {},
      onRetry: () => {},
      sleep: async (ms) => void waits.push(ms),
    });
    expect(waits).toEqual([34400]);
    expect(result.finish).toBe("stop");
    expect(fake.requests).toHaveLength(2);
  });

  it("takes an input over the window as context overflow", async () => {
    fake.enqueue({
      status: 400,
      body: JSON.stringify({
        error: {
          code: 400,
          message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).",
          status: "INVALID_ARGUMENT",
        },
      }),
    });
    const error = await run().catch((e) => e);
    expect(error).toMatchObject({ errorClass: "context_overflow", retryable: false });
  });

  it.each([401, 403])("does not retry %s, and never names the key", async (status) => {
    fake.enqueue({
      status,
      body: JSON.stringify({
        error: { code: status, message: `API key not valid: ${KEY}`, status: "PERMISSION_DENIED" },
      }),
    });
    const error = await run().catch((e) => e);
    expect(error).toMatchObject({ errorClass: "auth", retryable: false });
    expect(error.message).not.toContain(KEY);
  });

  it("takes Gemini's 400 'API key not valid' as an auth error", async () => {
    fake.enqueue({
      status: 400,
      body: JSON.stringify({
        error: {
          code: 400,
          message: "API key not valid. Please pass a valid API key.",
          status: "INVALID_ARGUMENT",
        },
      }),
    });
    expect(await run().catch((e) => e)).toMatchObject({ errorClass: "auth", retryable: false, status: 400 });
  });

  it("classifies an error object inside the stream", async () => {
    fake.enqueue({
      frames: frames([{ error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }]),
    });
    const error = await run().catch((e) => e);
    expect(error).toMatchObject({ retryable: true });
  });
});
