// The request rules the fake provider enforces like the real providers: every tool call a request
// carries is answered in the place its protocol requires, no result answers a missing call, no id
// is repeated; cut calls answered `not_executed` / `interrupted` are answered. Checked on
// hand-written bodies (tern's own builders: test/provider/built-bodies-legal.test.ts).
import { describe, expect, it } from "vitest";
import {
  anthropicToolViolations,
  anthropicViolations,
  chatToolViolations,
  protocolOfPath,
  refusalBody,
  responsesToolViolations,
  responsesViolations,
} from "./request-rules.js";

const user = (text: string) => ({ role: "user", content: text });
const chatCall = (id: string) => ({ id, type: "function", function: { name: "read", arguments: "{}" } });
const chatResult = (id: string, content = "ok") => ({ role: "tool", tool_call_id: id, content });

describe("which protocol a path speaks", () => {
  it("reads the three endpoints and nothing else", () => {
    expect(protocolOfPath("/v1/chat/completions")).toBe("openai-chat");
    expect(protocolOfPath("/v1/messages")).toBe("anthropic-messages");
    expect(protocolOfPath("/v1/responses?x=1")).toBe("openai-responses");
    expect(protocolOfPath("/api/tags")).toBeUndefined();
  });
});

describe("Chat Completions", () => {
  it("accepts parallel calls answered in any order, then a reply and a new prompt", () => {
    const body = {
      messages: [
        { role: "system", content: "s" },
        user("go"),
        { role: "assistant", content: null, tool_calls: [chatCall("a"), chatCall("b")] },
        chatResult("b"),
        chatResult("a"),
        { role: "user", content: [{ type: "text", text: "Images from tool call a:" }] },
        { role: "assistant", content: "done" },
        user("again"),
        // A local server that numbers its calls per turn reuses an id: legal in a later message.
        { role: "assistant", content: null, tool_calls: [chatCall("a")] },
        chatResult("a", "not executed: cancelled by user"),
      ],
    };
    expect(chatToolViolations(body)).toEqual([]);
  });

  it("names an unanswered call, also when the request ends on it", () => {
    const cut = {
      messages: [
        user("go"),
        { role: "assistant", content: null, tool_calls: [chatCall("a"), chatCall("b")] },
        chatResult("a"),
      ],
    };
    expect(chatToolViolations(cut).join()).toMatch(/did not have response messages: b$/);
    const interrupted = {
      messages: [
        user("go"),
        { role: "assistant", content: null, tool_calls: [chatCall("a")] },
        user("steer"),
        chatResult("a"),
      ],
    };
    const problems = chatToolViolations(interrupted);
    expect(problems.some((p) => p.includes("did not have response messages: a"))).toBe(true);
    expect(problems.some((p) => p.includes("tool_call_id a) must be a response to a preceding"))).toBe(true);
  });

  it("refuses an orphan result, a result for another message's call, repeats of ids", () => {
    expect(chatToolViolations({ messages: [user("go"), chatResult("x")] }).join()).toContain(
      "tool_call_id x",
    );
    const other = {
      messages: [
        user("go"),
        { role: "assistant", content: null, tool_calls: [chatCall("a")] },
        chatResult("a"),
        chatResult("z"),
      ],
    };
    expect(chatToolViolations(other)).toEqual([
      "messages.[3]: tool_call_id z answers no call of the assistant message before it",
    ]);
    const twice = {
      messages: [
        user("go"),
        { role: "assistant", content: null, tool_calls: [chatCall("a"), chatCall("a")] },
        chatResult("a"),
        chatResult("a"),
      ],
    };
    const problems = chatToolViolations(twice);
    expect(problems).toContain("messages.[1]: duplicate tool_call_id a");
    expect(problems).toContain("messages.[3]: tool_call_id a is answered twice");
  });
});

const use = (id: string) => ({ type: "tool_use", id, name: "read", input: {} });
const result = (id: string, text = "ok") => ({
  type: "tool_result",
  tool_use_id: id,
  content: [{ type: "text", text }],
});
const text = (t: string) => ({ type: "text", text: t });
const TOOLS = [{ name: "read", input_schema: { type: "object" } }];

describe("Anthropic Messages", () => {
  it("accepts results first in the next user message, with a prompt after them", () => {
    const body = {
      max_tokens: 100,
      tools: TOOLS,
      messages: [
        { role: "user", content: [text("go")] },
        { role: "assistant", content: [text("reading"), use("t1"), use("t2")] },
        {
          role: "user",
          content: [result("t2", "interrupted: cancelled by user"), result("t1"), text("and then?")],
        },
      ],
    };
    expect(anthropicViolations(body)).toEqual([]);
  });

  it("names a tool_use with no result in the next message", () => {
    const body = {
      messages: [
        { role: "user", content: [text("go")] },
        { role: "assistant", content: [use("t1"), use("t2")] },
        { role: "user", content: [result("t1")] },
        { role: "assistant", content: [use("t3")] },
      ],
    };
    expect(anthropicToolViolations(body)).toEqual([
      "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: t2. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
      "messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: t3. Each `tool_use` block must have a corresponding `tool_result` block in the next message.",
    ]);
  });

  it("refuses an orphan result, a result after text, a repeated id", () => {
    const orphan = { messages: [{ role: "user", content: [result("t9")] }] };
    expect(anthropicToolViolations(orphan).join()).toContain(
      "unexpected `tool_use_id` found in `tool_result` blocks: t9",
    );
    const late = {
      messages: [
        { role: "user", content: [text("go")] },
        { role: "assistant", content: [use("t1")] },
        { role: "user", content: [text("wait"), result("t1")] },
      ],
    };
    expect(anthropicToolViolations(late).join()).toContain(
      "the tool_result for t1 comes after other content",
    );
    const repeated = {
      messages: [
        { role: "user", content: [text("go")] },
        { role: "assistant", content: [use("t1")] },
        { role: "user", content: [result("t1"), result("t1")] },
        { role: "assistant", content: [use("t1")] },
        { role: "user", content: [result("t1")] },
      ],
    };
    const problems = anthropicToolViolations(repeated);
    expect(problems).toContain("messages.2.content.1: tool_use_id t1 is answered twice");
    expect(problems).toContain("messages.3.content.0: `tool_use` ids must be unique (t1)");
  });

  it("a result two messages late is both unanswered and an orphan", () => {
    const body = {
      messages: [
        { role: "user", content: [text("go")] },
        { role: "assistant", content: [use("t1")] },
        { role: "user", content: [text("steer")] },
        { role: "assistant", content: [text("ok")] },
        { role: "user", content: [result("t1")] },
      ],
    };
    const problems = anthropicToolViolations(body);
    expect(problems.some((p) => p.startsWith("messages.1: `tool_use` ids were found without"))).toBe(true);
    expect(
      problems.some((p) => p.includes("unexpected `tool_use_id` found in `tool_result` blocks: t1")),
    ).toBe(true);
  });
});

const call = (id: string) => ({ type: "function_call", call_id: id, name: "read", arguments: "{}" });
const output = (id: string, out = "ok") => ({ type: "function_call_output", call_id: id, output: out });

describe("Responses", () => {
  it("accepts every call answered after it, in any order, with messages between", () => {
    const body = {
      input: [
        { role: "user", content: [{ type: "input_text", text: "go" }] },
        call("c1"),
        call("c2"),
        output("c2", "not executed: the turn ended before it ran"),
        output("c1"),
        { role: "user", content: [{ type: "input_text", text: "more" }] },
      ],
    };
    expect(responsesToolViolations(body)).toEqual([]);
  });

  it("names a call without output, an output without call (also one before its call), repeats", () => {
    expect(responsesToolViolations({ input: [call("c1")] })).toEqual([
      "No tool output found for function call c1.",
    ]);
    expect(responsesToolViolations({ input: [output("c7"), call("c7")] })).toEqual([
      "input[0]: No tool call found for function call output with call_id c7.",
      "No tool output found for function call c7.",
    ]);
    expect(responsesToolViolations({ input: [call("c1"), output("c1"), call("c1"), output("c1")] })).toEqual([
      "input[2]: duplicate function_call call_id c1",
      "input[3]: function call output for call_id c1 appears twice",
    ]);
  });
});

describe("Responses, stateless", () => {
  it("refuses server ids, reasoning without its encrypted content, calls without tools", () => {
    const body = {
      stream: true,
      store: false,
      input: [
        { id: "rs_1", type: "reasoning", summary: [] },
        { type: "function_call", call_id: "c1", name: "read", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "ok" },
      ],
    };
    expect(responsesViolations(body)).toEqual([
      "input 0 (reasoning) carries a server id",
      "input 0 is a reasoning item without encrypted_content",
      "input 1 is a function_call but no tools are defined",
    ]);
  });
});

describe("the refusal a real API sends", () => {
  it("has each provider's error shape and names the id", () => {
    const anthropic = JSON.parse(refusalBody("anthropic-messages", ["x t1"]));
    expect(anthropic).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: "x t1" },
    });
    const chat = JSON.parse(refusalBody("openai-chat", ["y c1"]));
    expect(chat).toEqual({
      error: { message: "y c1", type: "invalid_request_error", param: "messages", code: null },
    });
    expect(JSON.parse(refusalBody("openai-responses", ["z"])).error.param).toBe("input");
  });
});
