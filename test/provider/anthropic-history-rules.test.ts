// Anthropic request rules met by what the model or another provider left in the history: a
// message whose only text is blank is refused ("text content blocks must contain non-whitespace
// text"; Claude sometimes answers "\n\n" before a call or a search, and that answer echoed as it
// came failed every later request of the session), and so is a tool id outside ^[a-zA-Z0-9_-]+$
// (calls made by Kimi and others before a switch to Claude).
import { describe, expect, it } from "vitest";
import { createAnthropicAdapter } from "../../src/provider/anthropic-messages.js";
import { buildAnthropicBody } from "../../src/provider/anthropic-request.js";
import type { NormalizedRequest } from "../../src/provider/types.js";
import { anthropicStream } from "../support/anthropic-script.js";
import { FakeProvider } from "../support/fake-provider.js";
import { anthropicViolations } from "../support/request-rules.js";

const READ = { name: "read_file", description: "Reads a file", parameters: { type: "object" } };

const request = (text: string, userText = "go on"): NormalizedRequest => ({
  model: "claude-test",
  system: "sys",
  tools: [READ],
  images: false,
  maxOutputTokens: 1024,
  messages: [
    { role: "user", content: [{ type: "text", text: "what is in a.txt?" }] },
    {
      role: "assistant",
      text,
      reasoning: "",
      toolCalls: [{ id: "toolu_1", name: "read_file", arguments: '{"path":"a.txt"}' }],
    },
    {
      role: "tool",
      toolCallId: "toolu_1",
      toolName: "read_file",
      isError: false,
      content: [{ type: "text", text: "alpha" }],
    },
    { role: "assistant", text: "\n", reasoning: "", toolCalls: [] },
    { role: "user", content: [{ type: "text", text: userText }] },
  ],
});

describe("blank text blocks (Anthropic)", () => {
  it("an answer that was only whitespace is sent without its text block", () => {
    const body: any = buildAnthropicBody(request("\n\n"));
    expect(anthropicViolations(body)).toEqual([]);
    expect(body.messages[1].content.map((b: any) => b.type)).toEqual(["tool_use"]);
    // The text-only blank answer disappears; the user messages around it join (roles alternate).
    expect(body.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
  });

  it("text with content keeps its whitespace as it came", () => {
    const body: any = buildAnthropicBody(request("\nReading it.\n"));
    expect(body.messages[1].content[0]).toEqual({ type: "text", text: "\nReading it.\n" });
  });

  it("the real server's rule: the request after a blank answer is accepted (over HTTP)", async () => {
    const fake = await FakeProvider.start();
    try {
      fake.enqueue(anthropicStream().text("done").build());
      const adapter = createAnthropicAdapter({
        api: "anthropic-messages",
        baseUrl: fake.baseUrl,
        headers: {},
      });
      let text = "";
      for await (const event of adapter.stream(request("\n\n"), {
        signal: new AbortController().signal,
        idleTimeoutMs: 20_000,
      })) {
        if (event.type === "text_delta") text += event.text;
      }
      expect(text).toBe("done");
      expect(fake.violations).toEqual([]);
    } finally {
      await fake.close();
    }
  });
});

describe("the fake provider knows the rule", () => {
  it("refuses a message whose only text is blank, accepts blank text beside real text", () => {
    const blank = {
      model: "m",
      max_tokens: 10,
      messages: [{ role: "user", content: [{ type: "text", text: " \n" }] }],
    };
    expect(anthropicViolations(blank).join()).toContain("non-whitespace");
    const mixed = {
      model: "m",
      max_tokens: 10,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: " " },
            { type: "text", text: "real" },
          ],
        },
      ],
    };
    expect(anthropicViolations(mixed)).toEqual([]);
  });
});

describe("tool ids from other providers (Anthropic accepts ^[a-zA-Z0-9_-]+$ only)", () => {
  const history = (ids: string[]): NormalizedRequest => ({
    model: "claude-test",
    system: "sys",
    tools: [READ],
    images: false,
    maxOutputTokens: 1024,
    messages: [
      { role: "user", content: [{ type: "text", text: "read both" }] },
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
    ],
  });

  it("a call made by Kimi (functions.read_file:0) and its result get one legal id, distinct from its neighbours", () => {
    const body: any = buildAnthropicBody(
      history(["functions.read_file:0", "functions.read_file:1", "functions_read_file_0"]),
    );
    expect(anthropicViolations(body)).toEqual([]);
    const uses = body.messages[1].content.map((b: any) => b.id);
    const results = body.messages[2].content.map((b: any) => b.tool_use_id);
    expect(results).toEqual(uses);
    expect(new Set(uses).size).toBe(3);
    expect(uses[2]).toBe("functions_read_file_0");
  });

  it("legal ids are sent unchanged", () => {
    const body: any = buildAnthropicBody(history(["toolu_01KFbK", "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF"]));
    expect(body.messages[1].content.map((b: any) => b.id)).toEqual([
      "toolu_01KFbK",
      "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF",
    ]);
  });
});
