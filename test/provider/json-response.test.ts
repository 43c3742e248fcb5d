// Some compatible servers ignore `stream: true` and answer with one JSON object (an OpenAI
// chat.completion or an Anthropic Message). tern reads it as if it had been streamed.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOpenAIChatAdapter } from "../../src/provider/openai-chat.js";
import type { NormalizedRequest, ProviderEvent } from "../../src/provider/types.js";
import { FakeProvider } from "../support/fake-provider.js";

let provider: FakeProvider;
beforeEach(async () => {
  provider = await FakeProvider.start();
});
afterEach(() => provider.close());

const request: NormalizedRequest = {
  model: "m",
  system: "",
  tools: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  images: false,
};

async function collect(): Promise<ProviderEvent[]> {
  const adapter = createOpenAIChatAdapter({ api: "openai-chat", baseUrl: provider.baseUrl, headers: {} });
  const events: ProviderEvent[] = [];
  for await (const event of adapter.stream(request, {
    signal: new AbortController().signal,
    idleTimeoutMs: 2000,
  })) {
    events.push(event);
  }
  return events;
}

describe("a non-streamed chat.completion answer", () => {
  it("yields its text, reasoning, tool calls, finish and usage", async () => {
    provider.enqueue({
      status: 200,
      body: JSON.stringify({
        id: "chatcmpl-1",
        object: "chat.completion",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: "Let me look.",
              reasoning_content: "thinking",
              tool_calls: [
                {
                  id: "call_1",
                  type: "function",
                  function: { name: "read_file", arguments: '{"path":"a"}' },
                },
              ],
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: 12, completion_tokens: 4, prompt_tokens_details: { cached_tokens: 2 } },
      }),
    });
    const events = await collect();
    const done = events.at(-1);
    expect(done?.type).toBe("done");
    if (done?.type !== "done") return;
    expect(done.result).toMatchObject({
      text: "Let me look.",
      reasoning: "thinking",
      finish: "tool_calls",
      toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"a"}' }],
      usage: { prompt: 12, completion: 4, cacheRead: 2, cacheWrite: 0 },
    });
    expect(events.some((e) => e.type === "text_delta" && e.text === "Let me look.")).toBe(true);
  });

  it("reports an error object in a 200 JSON answer as a provider error", async () => {
    provider.enqueue({
      status: 200,
      body: JSON.stringify({ error: { message: "boom", type: "server_error" } }),
    });
    await expect(collect()).rejects.toMatchObject({ errorClass: "server", retryable: true });
  });
});

describe("a non-streamed Anthropic Message answer", () => {
  it("yields its thinking, text, tool use, finish and usage", async () => {
    const { createAnthropicAdapter } = await import("../../src/provider/anthropic-messages.js");
    provider.enqueue({
      status: 200,
      body: JSON.stringify({
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude",
        content: [
          { type: "thinking", thinking: "hmm", signature: "sig" },
          { type: "text", text: "Reading." },
          { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a" } },
        ],
        stop_reason: "tool_use",
        usage: {
          input_tokens: 5,
          cache_read_input_tokens: 7,
          cache_creation_input_tokens: 3,
          output_tokens: 9,
        },
      }),
    });
    const adapter = createAnthropicAdapter({
      api: "anthropic-messages",
      baseUrl: provider.baseUrl,
      headers: {},
    });
    let done: ProviderEvent | undefined;
    for await (const event of adapter.stream(request, {
      signal: new AbortController().signal,
      idleTimeoutMs: 2000,
    })) {
      done = event;
    }
    expect(done?.type === "done" && done.result).toMatchObject({
      text: "Reading.",
      reasoning: "hmm",
      thinkingBlocks: [{ thinking: "hmm", signature: "sig" }],
      finish: "tool_calls",
      toolCalls: [{ id: "toolu_1", name: "read_file", arguments: '{"path":"a"}' }],
      usage: { prompt: 15, completion: 9, cacheRead: 7, cacheWrite: 3 },
    });
  });
});
