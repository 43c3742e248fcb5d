// What the openai-chat adapter sends: URL, headers, body mapping and the multimodal bridge (R-PROV-8).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IMAGE_PLACEHOLDER } from "../../src/provider/openai-request.js";
import type { NormalizedRequest } from "../../src/provider/types.js";
import { FakeProvider } from "../support/fake-provider.js";
import { openaiText } from "../support/openai-script.js";
import { baseRequest, collect } from "./openai-helpers.js";
import type { Message } from "../../src/vocab/messages.js";

let provider: FakeProvider;
beforeAll(async () => {
  provider = await FakeProvider.start();
});
afterAll(async () => {
  await provider.close();
});

async function sent(
  request: NormalizedRequest,
  options: { apiKey?: string; headers?: Record<string, string> } = {},
) {
  provider.enqueue(openaiText("ok"));
  const { error } = await collect(provider, request, options);
  expect(error).toBeUndefined();
  return provider.requests[provider.requests.length - 1];
}

const PNG = { type: "image" as const, mediaType: "image/png", data: "iVBORw0KGgo=" };

describe("request", () => {
  it("posts to <baseUrl>/chat/completions with streaming, usage, bearer key and endpoint headers", async () => {
    const req = await sent(baseRequest({ maxOutputTokens: 4096 }), {
      apiKey: "sk-test-123",
      headers: { "X-Title": "tern" },
    });
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-test-123");
    expect(req.headers["x-title"]).toBe("tern");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.body.model).toBe("test-model");
    expect(req.body.stream).toBe(true);
    expect(req.body.stream_options).toEqual({ include_usage: true });
    // A compatible server (not api.openai.com) reads the output limit from max_tokens (R-PROV-1).
    expect(req.body.max_tokens).toBe(4096);
    expect(req.body).not.toHaveProperty("max_completion_tokens");
    expect(req.body).not.toHaveProperty("tools");
  });

  it("sends no authorization header without a key", async () => {
    const req = await sent(baseRequest());
    expect(req.headers.authorization).toBeUndefined();
  });

  it("maps system, user, assistant tool calls (echoing extra_content), tool results and tools", async () => {
    const messages: Message[] = [
      { role: "user", content: [{ type: "text", text: "read a" }] },
      {
        role: "assistant",
        text: "",
        reasoning: "hmm",
        toolCalls: [
          {
            id: "call_1",
            name: "read_file",
            arguments: '{"path":"a"}',
            extra: { extra_content: { google: { thought_signature: "s" } } },
          },
        ],
      },
      {
        role: "tool",
        toolCallId: "call_1",
        toolName: "read_file",
        content: [{ type: "text", text: "A" }],
        isError: false,
      },
      { role: "assistant", text: "done", reasoning: "", toolCalls: [] },
    ];
    const req = await sent(
      baseRequest({
        messages,
        tools: [
          {
            name: "read_file",
            description: "Read a file",
            parameters: { type: "object", properties: { path: { type: "string" } } },
          },
        ],
      }),
    );
    expect(req.body.messages).toEqual([
      { role: "system", content: "You are a test." },
      { role: "user", content: "read a" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            extra_content: { google: { thought_signature: "s" } },
            id: "call_1",
            type: "function",
            function: { name: "read_file", arguments: '{"path":"a"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "A" },
      { role: "assistant", content: "done" },
    ]);
    expect(req.body.tools).toEqual([
      {
        type: "function",
        function: {
          name: "read_file",
          description: "Read a file",
          parameters: { type: "object", properties: { path: { type: "string" } } },
        },
      },
    ]);
  });

  it("sends user images as data URLs when the model takes images", async () => {
    const req = await sent(
      baseRequest({
        images: true,
        messages: [{ role: "user", content: [{ type: "text", text: "look" }, PNG] }],
      }),
    );
    expect(req.body.messages[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      ],
    });
  });

  it("replaces images with a placeholder when the model has no image input", async () => {
    const req = await sent(
      baseRequest({
        images: false,
        messages: [
          { role: "user", content: [{ type: "text", text: "look" }, PNG] },
          {
            role: "assistant",
            text: "",
            reasoning: "",
            toolCalls: [{ id: "c1", name: "read_file", arguments: "{}" }],
          },
          {
            role: "tool",
            toolCallId: "c1",
            toolName: "read_file",
            content: [{ type: "text", text: "img:" }, PNG],
            isError: false,
          },
        ],
      }),
    );
    expect(req.body.messages[1]).toEqual({ role: "user", content: `look\n${IMAGE_PLACEHOLDER}` });
    expect(req.body.messages[3]).toEqual({
      role: "tool",
      tool_call_id: "c1",
      content: `img:\n${IMAGE_PLACEHOLDER}`,
    });
    expect(req.body.messages).toHaveLength(4);
    expect(req.rawBody).not.toContain("iVBORw0KGgo=");
  });

  it("bridges tool-result images into one user message after the run of tool messages", async () => {
    const req = await sent(
      baseRequest({
        images: true,
        messages: [
          { role: "user", content: [{ type: "text", text: "shots" }] },
          {
            role: "assistant",
            text: "",
            reasoning: "",
            toolCalls: [
              { id: "c1", name: "shot", arguments: "{}" },
              { id: "c2", name: "ls", arguments: "{}" },
              { id: "c3", name: "shot", arguments: "{}" },
            ],
          },
          {
            role: "tool",
            toolCallId: "c1",
            toolName: "shot",
            content: [{ type: "text", text: "one" }, PNG],
            isError: false,
          },
          {
            role: "tool",
            toolCallId: "c2",
            toolName: "ls",
            content: [{ type: "text", text: "files" }],
            isError: false,
          },
          {
            role: "tool",
            toolCallId: "c3",
            toolName: "shot",
            content: [PNG, { ...PNG, mediaType: "image/jpeg" }],
            isError: false,
          },
          { role: "assistant", text: "seen", reasoning: "", toolCalls: [] },
        ],
      }),
    );
    const roles = req.body.messages.map((m: any) => m.role);
    expect(roles).toEqual(["system", "user", "assistant", "tool", "tool", "tool", "user", "assistant"]);
    expect(req.body.messages[3].content).toContain("one");
    expect(req.body.messages[4]).toEqual({ role: "tool", tool_call_id: "c2", content: "files" });
    expect(req.body.messages[6].content).toEqual([
      { type: "text", text: "Images from tool call c1:" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      { type: "text", text: "Images from tool call c3:" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      { type: "image_url", image_url: { url: "data:image/jpeg;base64,iVBORw0KGgo=" } },
    ]);
  });

  it("bridges at the end of the history too", async () => {
    const req = await sent(
      baseRequest({
        images: true,
        messages: [
          { role: "user", content: [{ type: "text", text: "shot" }] },
          {
            role: "assistant",
            text: "",
            reasoning: "",
            toolCalls: [{ id: "c1", name: "shot", arguments: "{}" }],
          },
          { role: "tool", toolCallId: "c1", toolName: "shot", content: [PNG], isError: false },
        ],
      }),
    );
    const last = req.body.messages[req.body.messages.length - 1];
    expect(last.role).toBe("user");
    expect(last.content[0]).toEqual({ type: "text", text: "Images from tool call c1:" });
  });
});
