// Responses API shapes beyond the builder's (R-PROV-9), over real HTTP: the arguments only in
// `function_call_arguments.done`, a call that never got arguments, a compatible server that
// ignores `stream: true` and answers with one Response object, and deltas that name their item by
// index only, by nothing, or by another id than its done item (shown once, not twice).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/provider/errors.js";
import { createAdapter } from "../../src/provider/index.js";
import { buildResponsesBody } from "../../src/provider/responses-request.js";
import type { NormalizedRequest, ProviderEvent, StreamResult } from "../../src/provider/types.js";
import { FakeProvider, sseEvent } from "../support/fake-provider.js";

let fake: FakeProvider;
beforeAll(async () => {
  fake = await FakeProvider.start();
});
afterAll(async () => {
  await fake.close();
});

const request: NormalizedRequest = {
  model: "gpt-5",
  system: "You are tern.",
  tools: [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: {} } }],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  maxOutputTokens: 4096,
  images: false,
  cacheKey: "s1",
};

async function collect(): Promise<{ events: ProviderEvent[]; result?: StreamResult; error?: ProviderError }> {
  const adapter = createAdapter({
    api: "openai-responses",
    baseUrl: fake.baseUrl,
    apiKey: "sk-k",
    headers: {},
  });
  const events: ProviderEvent[] = [];
  try {
    for await (const e of adapter.stream(request, {
      signal: new AbortController().signal,
      idleTimeoutMs: 20_000,
    }))
      events.push(e);
  } catch (error) {
    if (error instanceof ProviderError) return { events, error };
    throw error;
  }
  const done = events.find((e) => e.type === "done");
  return { events, result: done?.type === "done" ? done.result : undefined };
}

const ev = (type: string, body: object) => sseEvent(type, { type, ...body });
const USAGE = {
  input_tokens: 120,
  input_tokens_details: { cached_tokens: 100 },
  output_tokens: 40,
  output_tokens_details: { reasoning_tokens: 30 },
  total_tokens: 160,
};
const completed = ev("response.completed", { response: { id: "r1", status: "completed", usage: USAGE } });

describe("function-call arguments", () => {
  it("arguments given only by function_call_arguments.done (no item done) are the call's arguments", async () => {
    fake.enqueue({
      frames: [
        ev("response.output_item.added", {
          output_index: 0,
          item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "read_file", arguments: "" },
        }),
        ev("response.function_call_arguments.done", {
          item_id: "fc_1",
          output_index: 0,
          arguments: '{"path":"a.ts"}',
        }),
        completed,
      ],
    });
    const { events, result, error } = await collect();
    expect(error).toBeUndefined();
    expect(result?.toolCalls).toEqual([{ id: "call_1", name: "read_file", arguments: '{"path":"a.ts"}' }]);
    const streamed = events.flatMap((e) => (e.type === "tool_call_delta" ? [e.argumentsDelta] : []));
    expect(streamed.join("")).toBe('{"path":"a.ts"}');
  });

  it("deltas cut short, then function_call_arguments.done: only the missing tail streams", async () => {
    fake.enqueue({
      frames: [
        ev("response.output_item.added", {
          output_index: 0,
          item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "read_file", arguments: "" },
        }),
        ev("response.function_call_arguments.delta", { item_id: "fc_1", output_index: 0, delta: '{"path":' }),
        ev("response.function_call_arguments.done", {
          item_id: "fc_1",
          output_index: 0,
          arguments: '{"path":"b"}',
        }),
        completed,
      ],
    });
    const { events, result } = await collect();
    expect(result?.toolCalls[0].arguments).toBe('{"path":"b"}');
    const streamed = events.flatMap((e) => (e.type === "tool_call_delta" ? [e.argumentsDelta] : []));
    expect(streamed).toEqual(['{"path":', '"b"}']);
  });

  it("a call that never received arguments takes none ({}), as on the other protocols", async () => {
    fake.enqueue({
      frames: [
        ev("response.output_item.added", {
          output_index: 0,
          item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "read_file", arguments: "" },
        }),
        completed,
      ],
    });
    const { result } = await collect();
    expect(result?.toolCalls).toEqual([{ id: "call_1", name: "read_file", arguments: "{}" }]);
  });
});

describe("a server that ignores stream: true", () => {
  const reasoning = {
    type: "reasoning",
    id: "rs_1",
    summary: [{ type: "summary_text", text: "Look first." }],
    encrypted_content: "enc",
  };
  const message = {
    type: "message",
    id: "msg_1",
    role: "assistant",
    content: [{ type: "output_text", text: "Reading it." }],
  };
  const call = {
    type: "function_call",
    id: "fc_1",
    call_id: "call_1",
    name: "read_file",
    arguments: '{"path":"a"}',
  };

  it("one Response object is read like the stream: reasoning item kept, text, call, usage; one request", async () => {
    const before = fake.requests.length;
    fake.enqueue({
      status: 200,
      body: JSON.stringify({
        id: "r1",
        object: "response",
        status: "completed",
        output: [reasoning, message, call],
        usage: USAGE,
      }),
    });
    const { result, error } = await collect();
    expect(error).toBeUndefined();
    expect(fake.requests.length - before).toBe(1);
    expect(result).toMatchObject({
      text: "Reading it.",
      reasoning: "Look first.",
      finish: "tool_calls",
      toolCalls: [{ id: "call_1", name: "read_file", arguments: '{"path":"a"}' }],
      usage: { prompt: 120, completion: 40, cacheRead: 100, cacheWrite: 0 },
    });
    expect(result?.providerItems).toEqual([{ api: "openai-responses", item: reasoning }]);
  });

  it("an incomplete Response object is a length finish", async () => {
    fake.enqueue({
      status: 200,
      body: JSON.stringify({
        id: "r1",
        object: "response",
        status: "incomplete",
        incomplete_details: { reason: "max_output_tokens" },
        output: [message],
        usage: USAGE,
      }),
    });
    const { result } = await collect();
    expect(result).toMatchObject({ text: "Reading it.", finish: "length", rawFinish: "max_output_tokens" });
  });

  it("a failed Response object is a classified provider error carrying its usage", async () => {
    fake.enqueue({
      status: 200,
      body: JSON.stringify({
        id: "r1",
        object: "response",
        status: "failed",
        error: { code: "server_error", message: "The model failed." },
        output: [],
        usage: USAGE,
      }),
    });
    const { error } = await collect();
    expect(error).toMatchObject({ errorClass: "server", retryable: true });
    expect(error?.usage).toEqual({ prompt: 120, completion: 40, cacheRead: 100, cacheWrite: 0 });
  });
});

describe("deltas that name their item differently (compatible servers)", () => {
  const doneMessage = (id: string) =>
    ev("response.output_item.done", {
      output_index: 1,
      item: { type: "message", id, role: "assistant", content: [{ type: "output_text", text: "Hello." }] },
    });
  const doneReasoning = ev("response.output_item.done", {
    output_index: 0,
    item: {
      type: "reasoning",
      id: "rs_1",
      summary: [{ type: "summary_text", text: "Think." }],
      encrypted_content: "e",
    },
  });

  for (const [name, naming] of [
    ["by output index only", { output_index: 1 }],
    ["by neither id nor index", {}],
    ["by another id than the done item's", { item_id: "msg_stream", output_index: 1 }],
  ] as const) {
    it(`text and reasoning named ${name} are shown once, not again at their item's done`, async () => {
      const reasoningNaming = "output_index" in naming ? { ...naming, output_index: 0 } : naming;
      fake.enqueue({
        frames: [
          ev("response.reasoning_summary_text.delta", { ...reasoningNaming, delta: "Think." }),
          doneReasoning,
          ev("response.output_text.delta", { ...naming, delta: "Hel" }),
          ev("response.output_text.delta", { ...naming, delta: "lo." }),
          doneMessage("msg_done"),
          completed,
        ],
      });
      const { events, result } = await collect();
      expect(result).toMatchObject({ text: "Hello.", reasoning: "Think." });
      const shown = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : []));
      expect(shown.join("")).toBe("Hello.");
    });
  }

  it("an item that did not stream is still shown whole at its done", async () => {
    fake.enqueue({ frames: [doneReasoning, doneMessage("msg_1"), completed] });
    const { result } = await collect();
    expect(result).toMatchObject({ text: "Hello.", reasoning: "Think." });
  });
});

describe("a session that switched to a model known not to reason", () => {
  it("sends no reasoning items (the API refuses them for such a model), keeps hosted items and calls", () => {
    const history: NormalizedRequest = {
      ...request,
      messages: [
        { role: "user", content: [{ type: "text", text: "look it up" }] },
        {
          role: "assistant",
          text: "",
          reasoning: "plan",
          providerItems: [
            {
              api: "openai-responses",
              item: { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc" },
            },
            {
              api: "openai-responses",
              item: {
                type: "web_search_call",
                id: "ws_1",
                status: "completed",
                action: { type: "search", query: "q" },
              },
            },
          ],
          toolCalls: [{ id: "call_1", name: "read_file", arguments: "{}" }],
        },
        {
          role: "tool",
          toolCallId: "call_1",
          toolName: "read_file",
          isError: false,
          content: [{ type: "text", text: "ok" }],
        },
      ],
    };
    const types = (body: any) => body.input.map((i: any) => i.type ?? i.role);
    expect(types(buildResponsesBody(history, { encryptedReasoning: false }))).toEqual([
      "user",
      "web_search_call",
      "function_call",
      "function_call_output",
    ]);
    expect(types(buildResponsesBody(history))).toEqual([
      "user",
      "reasoning",
      "web_search_call",
      "function_call",
      "function_call_output",
    ]);
  });
});
