// Tool-call ids another provider made earlier in the session (before a model switch) must still
// make a request the current API accepts: OpenAI Chat Completions takes at most 40 characters
// (vLLM's ids are 46), the Responses API at most 64, Anthropic only ^[a-zA-Z0-9_-]+$. A call and
// its result keep one wire id; distinct ids stay distinct; ids that fit go out unchanged.
import { describe, expect, it } from "vitest";
import { buildAnthropicBody } from "../../src/provider/anthropic-request.js";
import { serializeChatBody } from "../../src/provider/openai-body.js";
import { buildChatBody, DEFAULT_WIRE } from "../../src/provider/openai-request.js";
import { buildResponsesBody } from "../../src/provider/responses-request.js";
import type { NormalizedRequest } from "../../src/provider/types.js";
import { anthropicViolations, chatToolViolations, responsesViolations } from "../support/request-rules.js";

const VLLM = "chatcmpl-tool-b3b3a7f4c2d94e6e8f1a0b2c3d4e5f60"; // 46 characters
const VLLM_TWIN = "chatcmpl-tool-b3b3a7f4c2d94e6e8f1a0b2c3d4e5f61";
const LONG = `call_${"x".repeat(100)}`;
const KIMI = "functions.read_file:0";
const SHORT = "toolu_01KFbK";

function request(ids: string[]): NormalizedRequest {
  return {
    model: "m",
    system: "sys",
    tools: [{ name: "read_file", description: "Reads a file", parameters: { type: "object" } }],
    images: false,
    maxOutputTokens: 1024,
    messages: [
      { role: "user", content: [{ type: "text", text: "read them" }] },
      {
        role: "assistant",
        text: "",
        reasoning: "",
        toolCalls: ids.map((id) => ({ id, name: "read_file", arguments: "{}" })),
      },
      ...ids.map((id) => ({
        role: "tool" as const,
        toolCallId: id,
        toolName: "read_file",
        isError: false,
        content: [{ type: "text" as const, text: `result of ${id}` }],
      })),
      { role: "user", content: [{ type: "text", text: "thanks" }] },
    ],
  };
}

describe("tool ids on each protocol", () => {
  const ids = [VLLM, VLLM_TWIN, LONG, KIMI, SHORT];

  it("chat completions: at most 40 characters, paired, distinct; the incremental body writes the same", () => {
    const body: any = buildChatBody(request(ids), DEFAULT_WIRE);
    expect(chatToolViolations(body)).toEqual([]);
    const calls = body.messages.find((m: any) => m.tool_calls).tool_calls.map((c: any) => c.id);
    const results = body.messages.filter((m: any) => m.role === "tool").map((m: any) => m.tool_call_id);
    expect(results).toEqual(calls);
    expect(new Set(calls).size).toBe(ids.length);
    for (const id of calls) expect(id.length).toBeLessThanOrEqual(40);
    expect(calls.slice(3)).toEqual([KIMI, SHORT]);
    expect(JSON.parse(serializeChatBody(request(ids), DEFAULT_WIRE))).toEqual(body);
  });

  it("responses: call ids of at most 64 characters, paired, distinct", () => {
    const body: any = buildResponsesBody(request(ids));
    expect(responsesViolations(body)).toEqual([]);
    const calls = body.input.filter((i: any) => i.type === "function_call").map((i: any) => i.call_id);
    const outputs = body.input
      .filter((i: any) => i.type === "function_call_output")
      .map((i: any) => i.call_id);
    expect(outputs).toEqual(calls);
    expect(new Set(calls).size).toBe(ids.length);
    expect(calls.slice(0, 2)).toEqual([VLLM, VLLM_TWIN]);
    expect(calls[2].length).toBeLessThanOrEqual(64);
  });

  it("anthropic: letters, digits, _ and - only, paired, distinct", () => {
    const body: any = buildAnthropicBody(request(ids));
    expect(anthropicViolations(body)).toEqual([]);
    const uses = body.messages[1].content.map((b: any) => b.id);
    expect(uses.slice(0, 3)).toEqual([VLLM, VLLM_TWIN, LONG]);
    expect(new Set(uses).size).toBe(ids.length);
  });

  it("the fake provider refuses ids over the limits, like the real APIs", () => {
    const chat = {
      messages: [
        { role: "assistant", tool_calls: [{ id: VLLM }] },
        { role: "tool", tool_call_id: VLLM },
      ],
    };
    expect(chatToolViolations(chat).join()).toContain("maximum length 40");
    const responses = {
      stream: true,
      store: false,
      tools: [{ type: "function", name: "f" }],
      input: [
        { type: "function_call", call_id: LONG, name: "f", arguments: "{}" },
        { type: "function_call_output", call_id: LONG, output: "" },
      ],
    };
    expect(responsesViolations(responses).join()).toContain("maximum length 64");
  });
});
