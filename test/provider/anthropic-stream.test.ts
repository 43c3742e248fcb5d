// The Anthropic adapter against the real fake provider: stream decoding, usage, errors.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicAdapter } from "../../src/provider/anthropic-messages.js";
import { ProviderError } from "../../src/provider/errors.js";
import type { NormalizedRequest, ProviderEvent, StreamResult } from "../../src/provider/types.js";
import { anthropicError, anthropicStream } from "../support/anthropic-script.js";
import { FakeProvider, sseEvent } from "../support/fake-provider.js";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
});

const request: NormalizedRequest = {
  model: "claude-test",
  system: "You are tern.",
  tools: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hello" }] }],
  images: false,
};

async function run(
  req: NormalizedRequest = request,
  apiKey: string | undefined = "test-key",
): Promise<{ events: ProviderEvent[]; result: StreamResult }> {
  const adapter = createAnthropicAdapter({
    api: "anthropic-messages",
    baseUrl: fake.baseUrl,
    apiKey,
    headers: {},
  });
  const events: ProviderEvent[] = [];
  for await (const e of adapter.stream(req, { signal: new AbortController().signal, idleTimeoutMs: 5000 })) {
    events.push(e);
  }
  const done = events.at(-1);
  if (done?.type !== "done") throw new Error("no done event");
  return { events: events.slice(0, -1), result: done.result };
}

async function runError(req: NormalizedRequest = request): Promise<ProviderError> {
  const err = await run(req).catch((e) => e);
  expect(err).toBeInstanceOf(ProviderError);
  return err;
}

describe("anthropic adapter: streams", () => {
  it("streams text to /v1/messages with the Anthropic headers", async () => {
    fake.enqueue(anthropicStream().text("Hello world", ["Hello", " world"]).build());
    const { events, result } = await run();
    expect(events.filter((e) => e.type === "text_delta").map((e: any) => e.text)).toEqual([
      "Hello",
      " world",
    ]);
    expect(result).toMatchObject({
      text: "Hello world",
      finish: "stop",
      rawFinish: "end_turn",
      toolCalls: [],
    });
    const seen = fake.requests[0];
    expect(seen.method).toBe("POST");
    expect(seen.path).toBe("/v1/messages");
    expect(seen.headers["x-api-key"]).toBe("test-key");
    expect(seen.headers["anthropic-version"]).toBe("2023-06-01");
    expect(seen.headers["content-type"]).toBe("application/json");
  });

  it("sends no x-api-key without a key, and endpoint headers are added", async () => {
    fake.enqueue(anthropicStream().text("x").build());
    const adapter = createAnthropicAdapter({
      api: "anthropic-messages",
      baseUrl: `${fake.baseUrl}/`,
      headers: { "anthropic-beta": "test-beta" },
    });
    for await (const _ of adapter.stream(request, {
      signal: new AbortController().signal,
      idleTimeoutMs: 5000,
    })) {
    }
    expect(fake.requests[0].path).toBe("/v1/messages");
    expect(fake.requests[0].headers["x-api-key"]).toBeUndefined();
    expect(fake.requests[0].headers["anthropic-beta"]).toBe("test-beta");
  });

  it("keeps thinking with its signature and sends it back first on the next request", async () => {
    fake.enqueue(
      anthropicStream()
        .thinking("Let me think", "EvQBsig", ["Let me", " think"])
        .text("Done")
        .toolUse({ id: "toolu_1", name: "read", input: { path: "a.txt" } })
        .stop("tool_use")
        .build(),
    );
    const { events, result } = await run();
    expect(events.filter((e) => e.type === "reasoning_delta").map((e: any) => e.text)).toEqual([
      "Let me",
      " think",
    ]);
    expect(result.reasoning).toBe("Let me think");
    expect(result.thinkingBlocks).toEqual([{ thinking: "Let me think", signature: "EvQBsig" }]);
    expect(result.finish).toBe("tool_calls");

    fake.enqueue(anthropicStream().text("ok").build());
    await run({
      ...request,
      // Anthropic refuses tool blocks in a request that defines no tools.
      tools: [{ name: "read", description: "Reads a file", parameters: { type: "object" } }],
      messages: [
        ...request.messages,
        {
          role: "assistant",
          text: result.text,
          reasoning: result.reasoning,
          toolCalls: result.toolCalls,
          thinkingBlocks: result.thinkingBlocks,
        },
        {
          role: "tool",
          toolCallId: "toolu_1",
          toolName: "read",
          content: [{ type: "text", text: "file" }],
          isError: false,
        },
      ],
    });
    const assistant = fake.requests[1].body.messages[1];
    expect(assistant.role).toBe("assistant");
    expect(assistant.content[0]).toEqual({
      type: "thinking",
      thinking: "Let me think",
      signature: "EvQBsig",
    });
    expect(assistant.content[1]).toEqual({ type: "text", text: "Done" });
    expect(assistant.content[2]).toEqual({
      type: "tool_use",
      id: "toolu_1",
      name: "read",
      input: { path: "a.txt" },
    });
  });

  it('keeps a thinking block without signature (older servers) with signature ""', async () => {
    fake.enqueue(anthropicStream().thinking("hmm", null).text("x").build());
    const { result } = await run();
    expect(result.thinkingBlocks).toEqual([{ thinking: "hmm", signature: "" }]);
  });

  it("keeps redacted thinking and echoes it back as redacted_thinking", async () => {
    fake.enqueue(anthropicStream().redactedThinking("OPAQUE").text("x").build());
    const { result } = await run();
    expect(result.thinkingBlocks).toEqual([{ thinking: "", signature: "OPAQUE", redacted: true }]);
    fake.enqueue(anthropicStream().text("y").build());
    await run({
      ...request,
      messages: [
        ...request.messages,
        { role: "assistant", text: "x", reasoning: "", toolCalls: [], thinkingBlocks: result.thinkingBlocks },
        { role: "user", content: [{ type: "text", text: "next" }] },
      ],
    });
    expect(fake.requests[1].body.messages[1].content[0]).toEqual({
      type: "redacted_thinking",
      data: "OPAQUE",
    });
  });

  it("assembles tool_use input from input_json_delta fragments (first one empty)", async () => {
    fake.enqueue(
      anthropicStream()
        .toolUse({ id: "toolu_a", name: "grep", input: {}, chunks: ["", '{"pattern"', ': "x", "n": 2}'] })
        .toolUse({ id: "toolu_b", name: "ls", input: {}, chunks: [""] })
        .stop("tool_use")
        .build(),
    );
    const { events, result } = await run();
    expect(events.filter((e) => e.type === "tool_call_start")).toEqual([
      { type: "tool_call_start", index: 0, id: "toolu_a", name: "grep" },
      { type: "tool_call_start", index: 1, id: "toolu_b", name: "ls" },
    ]);
    expect(
      events.filter((e) => e.type === "tool_call_delta" && e.index === 0).map((e: any) => e.argumentsDelta),
    ).toEqual(['{"pattern"', ': "x", "n": 2}']);
    expect(result.toolCalls).toEqual([
      { id: "toolu_a", name: "grep", arguments: '{"pattern": "x", "n": 2}' },
      { id: "toolu_b", name: "ls", arguments: "{}" },
    ]);
    expect(result.finish).toBe("tool_calls");
  });

  it("ignores ping frames anywhere and unknown events", async () => {
    const frames = anthropicStream()
      .ping()
      .text("a")
      .ping()
      .raw(sseEvent("future_event", { type: "future_event", x: 1 }))
      .text("b")
      .build();
    frames.frames!.splice(0, 0, sseEvent("ping", { type: "ping" }));
    fake.enqueue(frames);
    const { result } = await run();
    expect(result.text).toBe("ab");
  });

  it("reads cumulative usage: message_delta replaces, never adds; cache read/write reported", async () => {
    fake.enqueue(
      anthropicStream()
        .text("hi")
        .usage(
          {
            input_tokens: 2,
            output_tokens: 47,
            cache_read_input_tokens: 13993,
            cache_creation_input_tokens: 22,
          },
          {
            input_tokens: 2,
            output_tokens: 1,
            cache_read_input_tokens: 13993,
            cache_creation_input_tokens: 22,
          },
        )
        .build(),
    );
    const { events, result } = await run();
    expect(result.usage).toEqual({ prompt: 14017, completion: 47, cacheRead: 13993, cacheWrite: 22 });
    const snapshots = events.filter((e) => e.type === "usage").map((e: any) => e.usage.completion);
    expect(snapshots).toEqual([1, 47]);
  });

  it("takes newer input and cache counts from message_delta", async () => {
    fake.enqueue(
      anthropicStream()
        .text("hi")
        .usage(
          {
            input_tokens: 849,
            output_tokens: 47,
            cache_read_input_tokens: 100,
            cache_creation_input_tokens: 0,
          },
          { input_tokens: 0, output_tokens: 1 },
        )
        .build(),
    );
    const { result } = await run();
    expect(result.usage).toEqual({ prompt: 949, completion: 47, cacheRead: 100, cacheWrite: 0 });
  });

  it.each([
    ["end_turn", "stop"],
    ["stop_sequence", "stop"],
    ["max_tokens", "length"],
    ["refusal", "content_filter"],
    ["pause_turn", "other:pause_turn"],
  ])("maps stop_reason %s to %s", async (raw, finish) => {
    fake.enqueue(anthropicStream().text("x").stop(raw).build());
    const { result } = await run();
    expect(result.finish).toBe(finish);
    expect(result.rawFinish).toBe(raw);
  });

  it("infers the finish when the server sent no stop_reason", async () => {
    fake.enqueue(anthropicStream().toolUse({ id: "t", name: "ls", input: {} }).stop(null).build());
    const { result } = await run();
    expect(result).toMatchObject({ finish: "tool_calls", rawFinish: null });
  });
});

describe("anthropic adapter: failures", () => {
  it("an error event as the very first frame is a retryable overloaded error", async () => {
    fake.enqueue(anthropicStream().errorEvent("overloaded_error", "Overloaded").build());
    const err = await runError();
    expect(err).toMatchObject({ errorClass: "overloaded", retryable: true });
    expect(err.message).toContain("Overloaded");
  });

  it("an error event mid-stream carries the usage seen so far", async () => {
    fake.enqueue(
      anthropicStream()
        .usage({
          input_tokens: 30,
          output_tokens: 9,
          cache_read_input_tokens: 5,
          cache_creation_input_tokens: 0,
        })
        .text("partial")
        .errorEvent("api_error", "Internal server error")
        .build(),
    );
    const err = await runError();
    expect(err).toMatchObject({ errorClass: "server", retryable: true });
    expect(err.usage).toEqual({ prompt: 35, completion: 1, cacheRead: 5, cacheWrite: 0 });
  });

  it("a stream without a stop reason or message_stop is incomplete and retryable", async () => {
    fake.enqueue(anthropicStream().text("x").stop(null).noMessageStop().build());
    const err = await runError();
    expect(err).toMatchObject({ errorClass: "incomplete_stream", retryable: true });
    expect(err.usage).toBeDefined();
  });

  it("an unparsable JSON frame is an incomplete stream", async () => {
    fake.enqueue(
      anthropicStream().text("x").raw('event: content_block_delta\ndata: {"type":"content_bl\n\n').build(),
    );
    await expect(runError()).resolves.toMatchObject({ errorClass: "incomplete_stream", retryable: true });
  });

  it("a reset mid-stream is a retryable network error", async () => {
    fake.enqueue({ ...anthropicStream().text("x").build(), fault: { kind: "reset_after", frames: 2 } });
    await expect(runError()).resolves.toMatchObject({ errorClass: "network", retryable: true });
  });

  it("401 invalid x-api-key is auth, not retryable, and the key never appears in the message", async () => {
    fake.enqueue(anthropicError(401, "authentication_error", "invalid x-api-key"));
    const err = await runError();
    expect(err).toMatchObject({ errorClass: "auth", retryable: false, status: 401 });
    expect(err.message).not.toContain("test-key");
  });

  it("400 prompt is too long is context_overflow", async () => {
    fake.enqueue(
      anthropicError(400, "invalid_request_error", "prompt is too long: 205429 tokens > 200000 maximum"),
    );
    await expect(runError()).resolves.toMatchObject({
      errorClass: "context_overflow",
      retryable: false,
      status: 400,
    });
  });

  it("429 honours retry-after", async () => {
    fake.enqueue(
      anthropicError(
        429,
        "rate_limit_error",
        "Number of request tokens has exceeded your per-minute rate limit",
        { "retry-after": "7" },
      ),
    );
    await expect(runError()).resolves.toMatchObject({
      errorClass: "rate_limit",
      retryable: true,
      retryAfterMs: 7000,
    });
  });

  it("529 overloaded is retryable", async () => {
    fake.enqueue(anthropicError(529, "overloaded_error", "Overloaded"));
    await expect(runError()).resolves.toMatchObject({
      errorClass: "overloaded",
      retryable: true,
      status: 529,
    });
  });

  it("abort during the stream throws cancelled", async () => {
    fake.enqueue({ ...anthropicStream().text("x").build(), fault: { kind: "stall_after", frames: 2 } });
    const ac = new AbortController();
    const adapter = createAnthropicAdapter({ api: "anthropic-messages", baseUrl: fake.baseUrl, headers: {} });
    const err = await (async () => {
      for await (const e of adapter.stream(request, { signal: ac.signal, idleTimeoutMs: 5000 })) {
        if (e.type === "usage") ac.abort();
      }
    })().catch((e) => e);
    expect(err).toMatchObject({ errorClass: "cancelled" });
  });
});
