// Stream and request shapes that real compatible servers produce or require, written as our own
// small fixtures: reasoning echoed back on a tool continuation (DeepSeek thinking mode), content as
// an array of parts (Mistral magistral), refusals, reasoning tokens left out of completion_tokens
// (xAI), the output-limit field by server, and tool_choice only beside tools (R-PROV-1/3/6).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { serializeChatBody } from "../../src/provider/openai-body.js";
import { createOpenAIChatAdapter } from "../../src/provider/openai-chat.js";
import { buildChatBody, chatWireOptions } from "../../src/provider/openai-request.js";
import { normalizeUsage } from "../../src/provider/openai-stream.js";
import type { NormalizedRequest, ProviderCompat, StreamResult } from "../../src/provider/types.js";
import { FakeProvider } from "../support/fake-provider.js";
import { baseRequest, collect, texts } from "./openai-helpers.js";
import type { Message } from "../../src/vocab/messages.js";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
});

const frame = (delta: Record<string, unknown>, finish: string | null = null, extra: object = {}) =>
  `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
const usageFrame = (usage: Record<string, unknown>) =>
  `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", choices: [], usage })}\n\n`;
const DONE = "data: [DONE]\n\n";
const WEATHER = { name: "weather", description: "Weather for a place", parameters: { type: "object" } };

async function streamOnce(frames: string[], compat?: ProviderCompat, request = baseRequest()) {
  fake.enqueue({ frames });
  const adapter = createOpenAIChatAdapter({ api: "openai-chat", baseUrl: fake.baseUrl, headers: {}, compat });
  let result: StreamResult | undefined;
  for await (const event of adapter.stream(request, {
    signal: new AbortController().signal,
    idleTimeoutMs: 10_000,
  })) {
    if (event.type === "done") result = event.result;
  }
  return { result: result!, body: fake.requests.at(-1)!.body };
}

/** One tool round of a thinking model: reasoning in `field`, then a call, finish with usage. */
function thinkingToolRound(field: "reasoning_content" | "reasoning"): string[] {
  return [
    frame({ role: "assistant", content: null, [field]: "" }),
    frame({ content: null, [field]: "Need the " }),
    frame({ content: null, [field]: "forecast." }),
    frame({
      tool_calls: [
        { index: 0, id: "call_w1", type: "function", function: { name: "weather", arguments: "" } },
      ],
    }),
    frame({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
    frame({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
    frame({ content: "", [field]: null }, "tool_calls", {
      usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
    }),
    DONE,
  ];
}

/** The history after that round: the assistant message as the engine keeps it, plus its result. */
function continuation(result: StreamResult, earlier: Message[] = []): NormalizedRequest {
  return baseRequest({
    tools: [WEATHER],
    messages: [
      ...earlier,
      { role: "user", content: [{ type: "text", text: "weather in Oslo?" }] },
      {
        role: "assistant",
        text: result.text,
        reasoning: result.reasoning,
        toolCalls: result.toolCalls,
        ...(result.reasoningField ? { reasoningField: result.reasoningField } : {}),
      },
      {
        role: "tool",
        toolCallId: "call_w1",
        toolName: "weather",
        content: [{ type: "text", text: "rain" }],
        isError: false,
      },
    ],
  });
}

describe("reasoning echoed on a tool continuation (DeepSeek thinking mode)", () => {
  it("sends reasoning_content back on the current turn's assistant message, never on older turns", async () => {
    const { result } = await streamOnce(thinkingToolRound("reasoning_content"));
    expect(result.reasoning).toBe("Need the forecast.");
    expect(result.reasoningField).toBe("reasoning_content");

    const earlier: Message[] = [
      { role: "user", content: [{ type: "text", text: "hello" }] },
      {
        role: "assistant",
        text: "hi",
        reasoning: "old thoughts",
        toolCalls: [],
        reasoningField: "reasoning_content",
      },
    ];
    const { body } = await streamOnce(
      [frame({ content: "Rain." }, "stop"), DONE],
      undefined,
      continuation(result, earlier),
    );
    const assistants = body.messages.filter((m: any) => m.role === "assistant");
    expect(assistants[0]).not.toHaveProperty("reasoning_content");
    expect(assistants[1]).toMatchObject({
      reasoning_content: "Need the forecast.",
      content: null,
      tool_calls: [
        { id: "call_w1", type: "function", function: { name: "weather", arguments: '{"city":"Oslo"}' } },
      ],
    });
  });

  it("is switched off by compat.echoReasoning false and on for `reasoning` by compat true", async () => {
    const { result } = await streamOnce(thinkingToolRound("reasoning_content"));
    const off = await streamOnce(
      [frame({ content: "ok" }, "stop"), DONE],
      { echoReasoning: false },
      continuation(result),
    );
    expect(off.body.messages.find((m: any) => m.role === "assistant")).not.toHaveProperty(
      "reasoning_content",
    );

    const viaReasoning = await streamOnce(thinkingToolRound("reasoning"));
    expect(viaReasoning.result.reasoningField).toBe("reasoning");
    const byDefault = await streamOnce(
      [frame({ content: "ok" }, "stop"), DONE],
      undefined,
      continuation(viaReasoning.result),
    );
    expect(byDefault.body.messages.find((m: any) => m.role === "assistant")).not.toHaveProperty("reasoning");
    const forced = await streamOnce(
      [frame({ content: "ok" }, "stop"), DONE],
      { echoReasoning: true },
      continuation(viaReasoning.result),
    );
    expect(forced.body.messages.find((m: any) => m.role === "assistant").reasoning).toBe(
      "Need the forecast.",
    );
  });

  it("the incremental body drops the echo once a new turn starts, byte for byte like a fresh build", () => {
    const wire = chatWireOptions("http://127.0.0.1:1/v1");
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "q1" }] },
      {
        role: "assistant",
        text: "",
        reasoning: "think",
        reasoningField: "reasoning_content",
        toolCalls: [{ id: "c1", name: "weather", arguments: "{}" }],
      },
      {
        role: "tool",
        toolCallId: "c1",
        toolName: "weather",
        content: [{ type: "text", text: "sun" }],
        isError: false,
      },
    ];
    const request = () => baseRequest({ tools: [WEATHER], messages, maxOutputTokens: 100 });
    const first = serializeChatBody(request(), wire);
    expect(first).toBe(JSON.stringify(buildChatBody(request(), wire)));
    expect(JSON.parse(first).messages[2].reasoning_content).toBe("think");
    messages.push(
      { role: "assistant", text: "Sunny.", reasoning: "", toolCalls: [] },
      { role: "user", content: [{ type: "text", text: "q2" }] },
    );
    const second = serializeChatBody(request(), wire);
    expect(second).toBe(JSON.stringify(buildChatBody(request(), wire)));
    expect(JSON.parse(second).messages[2]).not.toHaveProperty("reasoning_content");
  });
});

describe("content and refusals", () => {
  it("reads content given as an array of parts: thinking parts as reasoning, text parts as the answer", async () => {
    fake.enqueue({
      frames: [
        frame({ role: "assistant", content: "" }),
        frame({ content: [{ type: "thinking", thinking: [{ type: "text", text: "Two plus two " }] }] }),
        frame({ content: [{ type: "thinking", thinking: [{ type: "text", text: "makes four." }] }] }),
        frame({
          content: [
            { type: "text", text: "It is " },
            { type: "text", text: "4." },
          ],
        }),
        frame({ content: "" }, "stop", {
          usage: { prompt_tokens: 8, completion_tokens: 12, total_tokens: 20 },
        }),
        DONE,
      ],
    });
    const { events, result } = await collect(fake);
    expect(texts(events, "reasoning_delta")).toBe("Two plus two makes four.");
    expect(texts(events, "text_delta")).toBe("It is 4.");
    expect(result).toMatchObject({ text: "It is 4.", reasoning: "Two plus two makes four.", finish: "stop" });
  });

  it("shows a refusal as the answer's text", async () => {
    fake.enqueue({
      frames: [
        frame({ role: "assistant", content: null, refusal: "" }),
        frame({ refusal: "I can't " }),
        frame({ refusal: "help with that." }),
        frame({}, "stop"),
        usageFrame({ prompt_tokens: 30, completion_tokens: 6, total_tokens: 36 }),
        DONE,
      ],
    });
    const { result } = await collect(fake);
    expect(result).toMatchObject({ text: "I can't help with that.", finish: "stop" });
  });

  it("a refusal with finish content_filter is content_filter", async () => {
    fake.enqueue({ frames: [frame({ refusal: "No." }), frame({}, "content_filter"), DONE] });
    const { result } = await collect(fake);
    expect(result).toMatchObject({ text: "No.", finish: "content_filter" });
  });
});

describe("usage as billed (R-PROV-6)", () => {
  it("adds reasoning tokens that completion_tokens leaves out (total = prompt + completion + reasoning)", () => {
    const xaiStyle = {
      prompt_tokens: 100,
      completion_tokens: 10,
      total_tokens: 310,
      prompt_tokens_details: { cached_tokens: 90 },
      completion_tokens_details: { reasoning_tokens: 200 },
    };
    expect(normalizeUsage(xaiStyle)).toEqual({ prompt: 100, completion: 210, cacheRead: 90, cacheWrite: 0 });
  });

  it("keeps completion_tokens when it already holds the reasoning (OpenAI, DeepSeek)", () => {
    const included = {
      prompt_tokens: 100,
      completion_tokens: 60,
      total_tokens: 160,
      completion_tokens_details: { reasoning_tokens: 50 },
      prompt_cache_hit_tokens: 40,
    };
    expect(normalizeUsage(included)).toEqual({ prompt: 100, completion: 60, cacheRead: 40, cacheWrite: 0 });
    // No total to tell: nothing is guessed.
    const noTotal = {
      prompt_tokens: 5,
      completion_tokens: 7,
      completion_tokens_details: { reasoning_tokens: 3 },
    };
    expect(normalizeUsage(noTotal)?.completion).toBe(7);
  });
});

describe("request shape by server (R-PROV-1)", () => {
  const request = baseRequest({ maxOutputTokens: 2048 });

  it("OpenAI's own API gets max_completion_tokens, every other server max_tokens", () => {
    const own = buildChatBody(request, chatWireOptions("https://api.openai.com/v1"));
    expect(own.max_completion_tokens).toBe(2048);
    expect(own).not.toHaveProperty("max_tokens");
    for (const base of [
      "https://api.deepseek.com/v1",
      "http://localhost:11434/v1",
      "https://api.groq.com/openai/v1",
    ]) {
      const body = buildChatBody(request, chatWireOptions(base));
      expect(body.max_tokens, base).toBe(2048);
      expect(body, base).not.toHaveProperty("max_completion_tokens");
    }
    const forced = buildChatBody(
      request,
      chatWireOptions("http://localhost:8000/v1", { maxTokensField: "max_completion_tokens" }),
    );
    expect(forced.max_completion_tokens).toBe(2048);
  });

  it("the adapter sends the limit on the wire, and the incremental body matches a fresh build", async () => {
    const { body } = await streamOnce([frame({ content: "ok" }, "stop"), DONE], undefined, request);
    expect(body.max_tokens).toBe(2048);
    const wire = chatWireOptions("https://api.openai.com/v1");
    expect(serializeChatBody(request, wire)).toBe(JSON.stringify(buildChatBody(request, wire)));
  });

  it("sends tool_choice none only beside tool definitions (OpenAI rejects it alone)", () => {
    const summary = baseRequest({ tools: [WEATHER], toolChoice: "none", maxOutputTokens: 300 });
    expect(serializeChatBody(summary)).toBe(JSON.stringify(buildChatBody(summary)));
    const withTools = buildChatBody(summary);
    expect(withTools.tool_choice).toBe("none");
    expect(withTools.tools).toHaveLength(1);
    const without = buildChatBody(baseRequest({ toolChoice: "none" }));
    expect(without).not.toHaveProperty("tool_choice");
    expect(without).not.toHaveProperty("tools");
  });
});
