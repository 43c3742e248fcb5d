// The request body the Anthropic adapter puts on the wire, as the fake provider received it.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicAdapter } from "../../src/provider/anthropic-messages.js";
import type { NormalizedRequest } from "../../src/provider/types.js";
import { anthropicStream } from "../support/anthropic-script.js";
import { FakeProvider } from "../support/fake-provider.js";
import type { Message } from "../../src/vocab/messages.js";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
});

const CACHE = { type: "ephemeral" };
const PNG = { type: "image" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };

async function sentBody(req: Partial<NormalizedRequest>): Promise<any> {
  fake.enqueue(anthropicStream().text("ok").build());
  const adapter = createAnthropicAdapter({
    api: "anthropic-messages",
    baseUrl: fake.baseUrl,
    apiKey: "k",
    headers: {},
  });
  const full: NormalizedRequest = {
    model: "claude-test",
    system: "",
    tools: [],
    messages: [],
    images: true,
    ...req,
  };
  for await (const _ of adapter.stream(full, { signal: new AbortController().signal, idleTimeoutMs: 5000 })) {
  }
  return fake.requests.at(-1)!.body;
}

const READ_TOOL = { name: "read", description: "Reads a file", parameters: { type: "object" } };

const toolRound: Message[] = [
  { role: "user", content: [{ type: "text", text: "look at both" }] },
  {
    role: "assistant",
    text: "",
    reasoning: "",
    toolCalls: [
      { id: "toolu_1", name: "read", arguments: '{"path":"a"}' },
      { id: "toolu_2", name: "read", arguments: '{"path": "b' },
    ],
  },
  {
    role: "tool",
    toolCallId: "toolu_1",
    toolName: "read",
    content: [{ type: "text", text: "A" }],
    isError: false,
  },
  {
    role: "tool",
    toolCallId: "toolu_2",
    toolName: "read",
    content: [{ type: "text", text: "bad args" }],
    isError: true,
  },
];

describe("anthropic request body", () => {
  it("has model, max_tokens (default 8192), stream, system blocks and tools with cache breakpoints", async () => {
    const body = await sentBody({
      system: "You are tern.",
      tools: [
        { name: "read", description: "Read a file", parameters: { type: "object", properties: {} } },
        { name: "ls", description: "List", parameters: { type: "object" } },
      ],
      messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    });
    expect(body.model).toBe("claude-test");
    expect(body.max_tokens).toBe(8192);
    expect(body.stream).toBe(true);
    expect(body.system).toEqual([{ type: "text", text: "You are tern.", cache_control: CACHE }]);
    expect(body.tools).toEqual([
      { name: "read", description: "Read a file", input_schema: { type: "object", properties: {} } },
      { name: "ls", description: "List", input_schema: { type: "object" }, cache_control: CACHE },
    ]);
    expect(body.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "hi", cache_control: CACHE }] },
    ]);
  });

  it("uses maxOutputTokens and omits empty system and tools", async () => {
    const body = await sentBody({
      maxOutputTokens: 1234,
      messages: [{ role: "user", content: [{ type: "text", text: "x" }] }],
    });
    expect(body.max_tokens).toBe(1234);
    expect(body).not.toHaveProperty("system");
    expect(body).not.toHaveProperty("tools");
  });

  it("groups consecutive tool results into one user message and merges a following prompt into it", async () => {
    const body = await sentBody({
      tools: [READ_TOOL],
      messages: [...toolRound, { role: "user", content: [{ type: "text", text: "now summarize" }] }],
    });
    expect(body.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
    // empty assistant text is not sent; invalid JSON arguments become {}
    expect(body.messages[1].content).toEqual([
      { type: "tool_use", id: "toolu_1", name: "read", input: { path: "a" } },
      { type: "tool_use", id: "toolu_2", name: "read", input: {} },
    ]);
    expect(body.messages[2].content).toEqual([
      {
        type: "tool_result",
        tool_use_id: "toolu_1",
        content: [{ type: "text", text: "A" }],
        is_error: false,
      },
      {
        type: "tool_result",
        tool_use_id: "toolu_2",
        content: [{ type: "text", text: "bad args" }],
        is_error: true,
      },
      { type: "text", text: "now summarize", cache_control: CACHE },
    ]);
    // only one message breakpoint: the last block of the last message
    const marked = body.messages.flatMap((m: any) => m.content).filter((b: any) => b.cache_control);
    expect(marked).toHaveLength(1);
  });

  it("puts the message breakpoint on the last tool_result when the request ends with tool results", async () => {
    const body = await sentBody({
      tools: [READ_TOOL],
      messages: toolRound,
    });
    const last = body.messages.at(-1);
    expect(last.content[0].cache_control).toBeUndefined();
    expect(last.content[1].cache_control).toEqual(CACHE);
  });

  it("sends user and tool-result images as base64 image blocks", async () => {
    const body = await sentBody({
      tools: [READ_TOOL],
      messages: [
        { role: "user", content: [{ type: "text", text: "see" }, PNG] },
        {
          role: "assistant",
          text: "ok",
          reasoning: "",
          toolCalls: [{ id: "t1", name: "shot", arguments: "{}" }],
        },
        {
          role: "tool",
          toolCallId: "t1",
          toolName: "shot",
          content: [PNG, { type: "text", text: "shot taken" }],
          isError: false,
        },
      ],
    });
    const image = {
      type: "image",
      source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
    };
    expect(body.messages[0].content[1]).toEqual(image);
    expect(body.messages[1].content).toEqual([
      { type: "text", text: "ok" },
      { type: "tool_use", id: "t1", name: "shot", input: {} },
    ]);
    expect(body.messages[2].content[0].content[0]).toEqual(image);
  });

  it("replaces images with text placeholders when the model has no image input", async () => {
    const body = await sentBody({
      tools: [READ_TOOL],
      images: false,
      messages: [
        { role: "user", content: [{ ...PNG, ref: "abc123" }] },
        {
          role: "assistant",
          text: "",
          reasoning: "",
          toolCalls: [{ id: "t1", name: "shot", arguments: "{}" }],
        },
        { role: "tool", toolCallId: "t1", toolName: "shot", content: [PNG], isError: false },
      ],
    });
    const json = JSON.stringify(body);
    expect(json).not.toContain('"type":"image"');
    expect(json).not.toContain("iVBORw0KGgo=");
    expect(body.messages[0].content[0].type).toBe("text");
    expect(body.messages[0].content[0].text).toContain("abc123");
    expect(body.messages[2].content[0].content[0].type).toBe("text");
    expect(body.messages[2].content[0].content[0].text).toMatch(/image/);
  });

  it("drops assistant messages with nothing to send and keeps alternation", async () => {
    const body = await sentBody({
      tools: [READ_TOOL],
      messages: [
        { role: "user", content: [{ type: "text", text: "a" }] },
        { role: "assistant", text: "", reasoning: "", toolCalls: [] },
        { role: "user", content: [{ type: "text", text: "b" }] },
      ],
    });
    expect(body.messages).toEqual([
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b", cache_control: CACHE },
        ],
      },
    ]);
  });

  it("does not send unsigned thinking blocks back; signed ones go first", async () => {
    const body = await sentBody({
      tools: [READ_TOOL],
      messages: [
        { role: "user", content: [{ type: "text", text: "a" }] },
        {
          role: "assistant",
          text: "answer",
          reasoning: "r1r2",
          toolCalls: [],
          thinkingBlocks: [
            { thinking: "r1", signature: "" },
            { thinking: "r2", signature: "SIG" },
          ],
        },
        { role: "user", content: [{ type: "text", text: "b" }] },
      ],
    });
    expect(body.messages[1].content).toEqual([
      { type: "thinking", thinking: "r2", signature: "SIG" },
      { type: "text", text: "answer" },
    ]);
  });
});
