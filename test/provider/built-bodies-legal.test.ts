// The bodies tern's three request builders make are ones the real APIs accept: every tool call
// answered where its protocol wants it, cut calls (interrupted, not executed) included; and a
// history that lost a result is refused naming the call (the rules: test/support/request-rules.ts).
import { describe, expect, it } from "vitest";
import { buildAnthropicBody } from "../../src/provider/anthropic-request.js";
import { buildChatBody } from "../../src/provider/openai-request.js";
import { buildResponsesBody } from "../../src/provider/responses-request.js";
import type { NormalizedRequest } from "../../src/provider/types.js";
import type { Message } from "../../src/vocab/messages.js";
import { requestViolations } from "../support/request-rules.js";

// tern's builders on a history with parallel calls, a cut batch (one call interrupted while
// running, one never run), and a prompt after the results: legal on all three protocols.
const read = (id: string) => ({ id, name: "read_file", arguments: '{"path":"a"}' });
const toolMessage = (id: string, text: string, isError = false): Message => ({
  role: "tool",
  toolCallId: id,
  toolName: "read_file",
  content: [{ type: "text", text }],
  isError,
});
const history: Message[] = [
  { role: "user", content: [{ type: "text", text: "read twice" }] },
  { role: "assistant", text: "", reasoning: "", toolCalls: [read("call_1"), read("call_2")] },
  toolMessage("call_1", "alpha"),
  toolMessage("call_2", "beta"),
  { role: "assistant", text: "again", reasoning: "", toolCalls: [read("call_3"), read("call_4")] },
  toolMessage(
    "call_3",
    "interrupted: cancelled by user while this call was running; its effects are unknown",
    true,
  ),
  toolMessage("call_4", "not executed: cancelled by user", true),
  { role: "user", content: [{ type: "text", text: "go on" }] },
];
const request = (messages: Message[]): NormalizedRequest => ({
  model: "m",
  system: "s",
  tools: [{ name: "read_file", description: "reads", parameters: { type: "object" } }],
  messages,
  images: false,
});

describe("bodies tern builds", () => {
  it("are legal on every protocol, cut calls included", () => {
    expect(requestViolations("openai-chat", buildChatBody(request(history)))).toEqual([]);
    expect(requestViolations("anthropic-messages", buildAnthropicBody(request(history)))).toEqual([]);
    expect(requestViolations("openai-responses", buildResponsesBody(request(history)))).toEqual([]);
  });

  it("are refused, naming the id, when the history lost a result", () => {
    const lost = history.filter((m) => !(m.role === "tool" && m.toolCallId === "call_4"));
    expect(requestViolations("openai-chat", buildChatBody(request(lost))).join()).toContain("call_4");
    expect(requestViolations("anthropic-messages", buildAnthropicBody(request(lost))).join()).toContain(
      "call_4",
    );
    expect(requestViolations("openai-responses", buildResponsesBody(request(lost))).join()).toContain(
      "call_4",
    );
  });
});
