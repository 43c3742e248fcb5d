// Thinking levels on every protocol (R-PROV-10) and Anthropic's provider-run web search
// (R-PROV-11): the request fields, and the server tool blocks read, kept and echoed exactly.
import { describe, expect, it } from "vitest";
import {
  buildAnthropicBody,
  MIN_THINKING_BUDGET,
  thinkingBudget,
} from "../../src/provider/anthropic-request.js";
import { AnthropicStreamState } from "../../src/provider/anthropic-stream.js";
import { buildChatBody, chatWireOptions } from "../../src/provider/openai-request.js";
import type { NormalizedRequest, ProviderEvent } from "../../src/provider/types.js";
import { anthropicViolations } from "../support/request-rules.js";

const TOOL = { name: "bash", description: "Run", parameters: { type: "object" } };
const req = (over: Partial<NormalizedRequest> = {}): NormalizedRequest => ({
  model: "m",
  system: "sys",
  tools: [TOOL],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  maxOutputTokens: 64000,
  images: false,
  ...over,
});

describe("Anthropic thinking budget (R-PROV-10)", () => {
  it("grows low < medium < high, at least 1024, always below max_tokens, for any output limit", () => {
    for (const max of [1, 1024, 2000, 4096, 8192, 32000, 64000, 128000]) {
      const [low, medium, high] = (["low", "medium", "high"] as const).map((l) => thinkingBudget(l, max)!);
      for (const t of [low, medium, high]) {
        expect(t.budget).toBeGreaterThanOrEqual(MIN_THINKING_BUDGET);
        expect(t.budget).toBeLessThan(t.maxTokens);
        expect(t.maxTokens).toBeGreaterThanOrEqual(max);
      }
      expect(low.budget).toBeLessThanOrEqual(medium.budget);
      expect(medium.budget).toBeLessThanOrEqual(high.budget);
      if (max >= 8192) {
        expect(low.budget).toBeLessThan(medium.budget);
        expect(medium.budget).toBeLessThan(high.budget);
      }
    }
    expect(thinkingBudget("off", 8192)).toBeUndefined();
    expect(thinkingBudget(undefined, 8192)).toBeUndefined();
  });

  it("the body carries thinking.enabled with the budget and no temperature; off sends none", () => {
    const body = buildAnthropicBody(req({ thinking: "medium" }));
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
    expect(body.max_tokens).toBe(64000);
    expect(body).not.toHaveProperty("temperature");
    expect(buildAnthropicBody(req({ thinking: "off" }))).not.toHaveProperty("thinking");
    expect(buildAnthropicBody(req())).not.toHaveProperty("thinking");
  });
});

describe("chat reasoning_effort (R-PROV-10)", () => {
  it("only for endpoints the catalogue marks as reasoning, and never for off", () => {
    const reasoning = chatWireOptions("https://openrouter.ai/api/v1", { reasoningEffort: true });
    expect(buildChatBody(req({ thinking: "low" }), reasoning).reasoning_effort).toBe("low");
    expect(buildChatBody(req({ thinking: "off" }), reasoning)).not.toHaveProperty("reasoning_effort");
    const plain = chatWireOptions("https://openrouter.ai/api/v1", {});
    expect(buildChatBody(req({ thinking: "high" }), plain)).not.toHaveProperty("reasoning_effort");
  });
});

describe("Anthropic web search server tool (R-PROV-11)", () => {
  const RESULT = {
    type: "web_search_tool_result",
    tool_use_id: "srvtoolu_1",
    content: [
      { type: "web_search_result", url: "https://example.com", title: "Ex", encrypted_content: "EC1" },
    ],
  };
  function play(): { events: ProviderEvent[]; state: AnthropicStreamState } {
    const state = new AnthropicStreamState();
    const events: ProviderEvent[] = [];
    const frames = [
      { type: "message_start", message: { usage: { input_tokens: 100, output_tokens: 1 } } },
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "thinking", thinking: "", signature: "" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "thinking_delta", thinking: "search it" } },
      { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "SIG" } },
      { type: "content_block_stop", index: 0 },
      {
        type: "content_block_start",
        index: 1,
        content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
      },
      {
        type: "content_block_delta",
        index: 1,
        delta: { type: "input_json_delta", partial_json: '{"query":' },
      },
      { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '"tern"}' } },
      { type: "content_block_stop", index: 1 },
      { type: "content_block_start", index: 2, content_block: RESULT },
      { type: "content_block_stop", index: 2 },
      { type: "content_block_start", index: 3, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 3, delta: { type: "text_delta", text: "Found." } },
      { type: "content_block_stop", index: 3 },
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn" },
        usage: { input_tokens: 100, output_tokens: 30, server_tool_use: { web_search_requests: 1 } },
      },
      { type: "message_stop" },
    ];
    for (const f of frames) events.push(...state.handle(f));
    return { events, state };
  }

  it("shows the search, keeps both blocks in order, counts the search in usage", () => {
    const { events, state } = play();
    expect(events.filter((e) => e.type === "hosted_tool")).toEqual([
      { type: "hosted_tool", name: "web_search", status: "started", detail: "" },
      { type: "hosted_tool", name: "web_search", status: "done", detail: "tern" },
    ]);
    const result = state.result();
    expect(result.toolCalls).toEqual([]);
    expect(result.text).toBe("Found.");
    expect(result.providerItems).toEqual([
      {
        api: "anthropic-messages",
        item: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "tern" } },
      },
      { api: "anthropic-messages", item: RESULT },
    ]);
    expect(result.usage).toEqual({
      prompt: 100,
      completion: 30,
      cacheRead: 0,
      cacheWrite: 0,
      webSearches: 1,
    });
  });

  it("echoes thinking, the search blocks exactly and the text; defines the web_search tool", () => {
    const result = play().state.result();
    const body = buildAnthropicBody(
      req({
        thinking: "low",
        hostedTools: ["web_search"],
        messages: [
          { role: "user", content: [{ type: "text", text: "q" }] },
          {
            role: "assistant",
            text: result.text,
            reasoning: result.reasoning,
            thinkingBlocks: result.thinkingBlocks,
            providerItems: result.providerItems,
            toolCalls: [],
          },
          { role: "user", content: [{ type: "text", text: "more" }] },
        ],
      }),
    );
    expect((body.tools as any[]).at(-1)).toEqual({ type: "web_search_20250305", name: "web_search" });
    const assistant = (body.messages as any[])[1];
    expect(assistant.content).toEqual([
      { type: "thinking", thinking: "search it", signature: "SIG" },
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "tern" } },
      RESULT,
      { type: "text", text: "Found." },
    ]);
    expect(anthropicViolations(body)).toEqual([]);
    // A side question (no tools) cannot carry server tool blocks: they are left out.
    const side = buildAnthropicBody(
      req({
        tools: [],
        messages: [
          { role: "user", content: [{ type: "text", text: "q" }] },
          {
            role: "assistant",
            text: "Found.",
            reasoning: "",
            providerItems: result.providerItems,
            toolCalls: [],
          },
          { role: "user", content: [{ type: "text", text: "btw?" }] },
        ],
      }),
    );
    expect(JSON.stringify(side)).not.toContain("server_tool_use");
  });
});

describe("thinking on a tool loop begun without it", () => {
  const loop = (
    thinkingBlocks?: { thinking: string; signature: string }[],
  ): NormalizedRequest["messages"] => [
    { role: "user", content: [{ type: "text", text: "go" }] },
    {
      role: "assistant",
      text: "",
      reasoning: "",
      ...(thinkingBlocks ? { thinkingBlocks } : {}),
      toolCalls: [{ id: "toolu_1", name: "bash", arguments: "{}" }],
    },
    {
      role: "tool",
      toolCallId: "toolu_1",
      toolName: "bash",
      content: [{ type: "text", text: "ok" }],
      isError: false,
    },
  ];

  it("goes without thinking for that request only (an old record resumed mid-loop stays legal)", () => {
    const old = buildAnthropicBody(req({ thinking: "high", maxOutputTokens: 8192, messages: loop() }));
    expect(old).not.toHaveProperty("thinking");
    expect(old.max_tokens).toBe(8192);
    const thought = buildAnthropicBody(
      req({ thinking: "high", maxOutputTokens: 8192, messages: loop([{ thinking: "t", signature: "S" }]) }),
    );
    expect(thought.thinking).toEqual({ type: "enabled", budget_tokens: 6144 });
    const next = loop();
    next.push({ role: "assistant", text: "done", reasoning: "", toolCalls: [] });
    next.push({ role: "user", content: [{ type: "text", text: "new turn" }] });
    expect(buildAnthropicBody(req({ thinking: "high", messages: next })).thinking).toBeDefined();
  });
});
