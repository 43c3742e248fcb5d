// The openai-chat adapter against every stream quirk of wire-facts §1 (R-PROV-2…6), over real HTTP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakeProvider, sseData as f } from "../support/fake-provider.js";
import { openaiStream } from "../support/openai-script.js";
import { collect, texts } from "./openai-helpers.js";

const DONE = "data: [DONE]\n\n";
let provider: FakeProvider;
beforeAll(async () => {
  provider = await FakeProvider.start();
});
afterAll(async () => {
  await provider.close();
});

async function play(frames: string[]) {
  provider.enqueue({ frames });
  return collect(provider);
}

describe("recorded streams", () => {
  it("OpenAI text with include_usage (1a)", async () => {
    const base = {
      id: "chatcmpl-D8Z",
      object: "chat.completion.chunk",
      model: "gpt-4.1-nano",
      obfuscation: "Qup1BsQ3",
    };
    const { events, result, error } = await play([
      f({
        ...base,
        choices: [
          {
            index: 0,
            delta: { role: "assistant", content: "", refusal: null },
            logprobs: null,
            finish_reason: null,
          },
        ],
        usage: null,
      }),
      f({
        ...base,
        choices: [{ index: 0, delta: { content: "Holiday" }, finish_reason: null }],
        usage: null,
      }),
      f({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: null }),
      f({
        ...base,
        choices: [],
        usage: {
          prompt_tokens: 16,
          completion_tokens: 300,
          total_tokens: 316,
          prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0 },
        },
      }),
      DONE,
    ]);
    expect(error).toBeUndefined();
    expect(events.map((e) => e.type)).toEqual(["text_delta", "usage", "done"]);
    expect(result).toMatchObject({ text: "Holiday", finish: "stop", rawFinish: "stop", toolCalls: [] });
    expect(result?.usage).toEqual({ prompt: 16, completion: 300, cacheRead: 0, cacheWrite: 0 });
  });

  it("OpenAI single tool call (aibridge recording)", async () => {
    const { events, result } = await play([
      f({
        choices: [
          {
            index: 0,
            delta: {
              role: "assistant",
              content: null,
              tool_calls: [
                {
                  index: 0,
                  id: "call_Hjeq",
                  type: "function",
                  function: { name: "read_file", arguments: "" },
                },
              ],
              refusal: null,
            },
            finish_reason: null,
          },
        ],
      }),
      f({
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, function: { arguments: '{"' } }] },
            finish_reason: null,
          },
        ],
      }),
      f({
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, function: { arguments: 'path":"a.txt"}' } }] },
            finish_reason: null,
          },
        ],
      }),
      f({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] }),
      f({
        choices: [],
        usage: { prompt_tokens: 50, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 32 } },
      }),
      DONE,
    ]);
    expect(events.filter((e) => e.type.startsWith("tool_call"))).toEqual([
      { type: "tool_call_start", index: 0, id: "call_Hjeq", name: "read_file" },
      { type: "tool_call_delta", index: 0, argumentsDelta: '{"' },
      { type: "tool_call_delta", index: 0, argumentsDelta: 'path":"a.txt"}' },
    ]);
    expect(result?.toolCalls).toEqual([
      { id: "call_Hjeq", name: "read_file", arguments: '{"path":"a.txt"}' },
    ]);
    expect(result?.finish).toBe("tool_calls");
    expect(result?.usage).toEqual({ prompt: 50, completion: 9, cacheRead: 32, cacheWrite: 0 });
  });

  it("parallel calls keyed by index, interleaved (1b)", async () => {
    const tc = (o: object) => f({ choices: [{ index: 0, delta: { tool_calls: [o] }, finish_reason: null }] });
    const { result } = await play([
      tc({ index: 0, id: "call_a", type: "function", function: { name: "glob", arguments: "" } }),
      tc({ index: 1, id: "call_b", type: "function", function: { name: "grep", arguments: "" } }),
      tc({ index: 0, function: { arguments: '{"pattern":' } }),
      tc({ index: 1, function: { arguments: '{"q":"x"}' } }),
      tc({ index: 0, function: { arguments: '"*.ts"}' } }),
      f({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] }),
      DONE,
    ]);
    expect(result?.toolCalls).toEqual([
      { id: "call_a", name: "glob", arguments: '{"pattern":"*.ts"}' },
      { id: "call_b", name: "grep", arguments: '{"q":"x"}' },
    ]);
  });

  it("Azure: empty first frame, content filter fields, a frame after the finish (1c)", async () => {
    const { result, error } = await play([
      f({
        choices: [],
        created: 0,
        id: "",
        model: "",
        object: "",
        prompt_filter_results: [{ prompt_index: 0, content_filter_results: {} }],
      }),
      f({
        choices: [
          {
            index: 0,
            delta: { role: "assistant", content: "Hi" },
            content_filter_results: {},
            finish_reason: null,
          },
        ],
      }),
      f({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }),
      f({
        choices: [{ content_filter_offsets: {}, content_filter_results: {}, finish_reason: null, index: 0 }],
        id: "",
      }),
      "data: \n\n",
      DONE,
    ]);
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ text: "Hi", finish: "stop", rawFinish: "stop" });
  });

  it("DeepSeek reasoning, tool call, finish and usage in one frame (1d)", async () => {
    const c = (delta: object, extra: object = {}) =>
      f({
        id: "cca8",
        model: "deepseek-reasoner",
        choices: [{ index: 0, delta, finish_reason: null, ...extra }],
        usage: null,
      });
    const { events, result } = await play([
      c({ role: "assistant", content: null, reasoning_content: "" }),
      c({ content: null, reasoning_content: "The" }),
      c({ content: null, reasoning_content: " user" }),
      ": keep-alive\n\n",
      c({
        tool_calls: [
          {
            index: 0,
            id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF",
            type: "function",
            function: { name: "weather", arguments: "" },
          },
        ],
      }),
      c({ tool_calls: [{ index: 0, function: { arguments: "{" } }] }),
      c({ tool_calls: [{ index: 0, function: { arguments: '"city":"Paris"}' } }] }),
      f({
        id: "cca8",
        choices: [{ index: 0, delta: { content: "", reasoning_content: null }, finish_reason: "tool_calls" }],
        usage: {
          prompt_tokens: 339,
          completion_tokens: 83,
          total_tokens: 422,
          prompt_tokens_details: { cached_tokens: 320 },
          completion_tokens_details: { reasoning_tokens: 39 },
          prompt_cache_hit_tokens: 320,
          prompt_cache_miss_tokens: 19,
        },
      }),
      DONE,
    ]);
    expect(texts(events, "reasoning_delta")).toBe("The user");
    expect(result?.reasoning).toBe("The user");
    expect(result?.toolCalls).toEqual([
      { id: "call_00_ioIn7yN9p1ZOMNpDLwd4MgAF", name: "weather", arguments: '{"city":"Paris"}' },
    ]);
    expect(result?.usage).toEqual({ prompt: 339, completion: 83, cacheRead: 320, cacheWrite: 0 });
    expect(result?.finish).toBe("tool_calls");
  });

  it("DeepSeek cache hits without prompt_tokens_details", async () => {
    const { result } = await play([
      f({ choices: [{ index: 0, delta: { content: "The" }, finish_reason: null }] }),
      f({
        choices: [{ index: 0, delta: { content: "", reasoning_content: null }, finish_reason: "stop" }],
        usage: {
          prompt_tokens: 339,
          completion_tokens: 83,
          prompt_cache_hit_tokens: 320,
          prompt_cache_miss_tokens: 19,
        },
      }),
      DONE,
    ]);
    expect(result?.usage).toEqual({ prompt: 339, completion: 83, cacheRead: 320, cacheWrite: 0 });
  });

  it("Mistral: no index, whole arguments, finish and usage in one frame, no [DONE] (1e)", async () => {
    const { events, result, error } = await play([
      f({
        id: "b3999b",
        model: "mistral-small-latest",
        choices: [
          { index: 0, delta: { role: "assistant", content: "" }, finish_reason: null, logprobs: null },
        ],
      }),
      f({
        id: "b3999b",
        choices: [
          {
            index: 0,
            delta: {
              content: null,
              tool_calls: [
                {
                  id: "gSIMJiOkT",
                  function: { name: "weather", arguments: '{"location": "San Francisco"}' },
                },
              ],
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: 124, total_tokens: 146, completion_tokens: 22 },
      }),
    ]);
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type.startsWith("tool_call"))).toEqual([
      { type: "tool_call_start", index: 0, id: "gSIMJiOkT", name: "weather" },
      { type: "tool_call_delta", index: 0, argumentsDelta: '{"location": "San Francisco"}' },
    ]);
    expect(result?.toolCalls).toEqual([
      { id: "gSIMJiOkT", name: "weather", arguments: '{"location": "San Francisco"}' },
    ]);
    expect(result?.usage).toEqual({ prompt: 124, completion: 22, cacheRead: 0, cacheWrite: 0 });
  });

  it("an empty name in a continuation never overwrites the stored one (1e)", async () => {
    const tc = (o: object) => f({ choices: [{ index: 0, delta: { tool_calls: [o] }, finish_reason: null }] });
    const { result } = await play([
      tc({ index: 0, id: "call_1", type: "function", function: { name: "write_file", arguments: "" } }),
      tc({ index: 0, function: { name: "", arguments: '{"a":' } }),
      tc({ index: 0, function: { name: "", arguments: "1}" } }),
      f({ choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] }),
      DONE,
    ]);
    expect(result?.toolCalls).toEqual([{ id: "call_1", name: "write_file", arguments: '{"a":1}' }]);
  });

  it("Gemini: no index, extra_content kept, a streamed 'stop' with calls counts as tool_calls (1l)", async () => {
    const extra = { google: { thought_signature: "sig==" } };
    const { result } = await play([
      f({
        choices: [
          {
            delta: {
              role: "assistant",
              tool_calls: [
                {
                  extra_content: extra,
                  function: { arguments: '{"path":"x"}', name: "read" },
                  id: "call_297140",
                  type: "function",
                },
              ],
            },
            index: 0,
          },
        ],
      }),
      f({
        choices: [
          {
            delta: {
              tool_calls: [
                {
                  function: { arguments: '{"path":"y"}', name: "read" },
                  id: "function-call-2",
                  type: "function",
                },
              ],
            },
            index: 0,
          },
        ],
      }),
      f({ choices: [{ delta: {}, finish_reason: "stop", index: 0 }] }),
      DONE,
    ]);
    expect(result?.toolCalls).toEqual([
      { id: "call_297140", name: "read", arguments: '{"path":"x"}', extra: { extra_content: extra } },
      { id: "function-call-2", name: "read", arguments: '{"path":"y"}' },
    ]);
    expect(result?.finish).toBe("tool_calls");
    expect(result?.rawFinish).toBe("stop");
  });

  it("tool-call indexes starting at 1", async () => {
    const { events, result } = await play(
      openaiStream()
        .toolCall({ id: "t1", name: "a", args: { x: 1 }, index: 1, chunks: 2 })
        .toolCall({ id: "t2", name: "b", index: 2 })
        .finish("tool_calls")
        .build().frames!,
    );
    expect(result?.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ["t1", "a", '{"x":1}'],
      ["t2", "b", "{}"],
    ]);
    expect(events.filter((e) => e.type === "tool_call_start").map((e) => (e as any).index)).toEqual([0, 1]);
  });

  it("vLLM: first tool delta without arguments, finish beside the last delta, usage on every chunk (1f)", async () => {
    const usage = (p: number, c: number) => ({ prompt_tokens: p, total_tokens: p + c, completion_tokens: c });
    const { events, result } = await play([
      f({
        id: "chat-2267",
        model: "meta/llama-3.1-8b-instruct:fp8",
        choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }],
        usage: usage(226, 0),
      }),
      f({
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { id: "chatcmpl-tool-b3b3", type: "function", index: 0, function: { name: "searchGoogle" } },
              ],
            },
            finish_reason: null,
          },
        ],
        usage: usage(226, 10),
      }),
      f({
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, function: { arguments: "" } }] },
            finish_reason: "tool_calls",
            stop_reason: 128008,
          },
        ],
        usage: usage(226, 20),
      }),
      f({ choices: [], usage: usage(226, 20) }),
      DONE,
    ]);
    expect(result?.toolCalls).toEqual([{ id: "chatcmpl-tool-b3b3", name: "searchGoogle", arguments: "{}" }]);
    expect(events.filter((e) => e.type === "usage")).toHaveLength(3);
    expect(result?.usage).toEqual({ prompt: 226, completion: 20, cacheRead: 0, cacheWrite: 0 });
  });

  it("ids that arrive on a later chunk", async () => {
    const { events, result } = await play(
      openaiStream()
        .toolCall({ id: "late_id", name: "bash", args: '{"command":"ls"}', idLater: true, chunks: 2 })
        .finish("tool_calls")
        .build().frames!,
    );
    const toolEvents = events.filter((e) => e.type.startsWith("tool_call"));
    expect(toolEvents[0]).toEqual({ type: "tool_call_start", index: 0, id: "late_id", name: "bash" });
    expect(
      toolEvents
        .slice(1)
        .map((e) => (e as any).argumentsDelta)
        .join(""),
    ).toBe('{"command":"ls"}');
    expect(result?.toolCalls[0]).toEqual({ id: "late_id", name: "bash", arguments: '{"command":"ls"}' });
  });
});

describe("finish and completeness (R-PROV-3, R-PROV-5)", () => {
  const text = (t: string, extra: object = { finish_reason: null }) =>
    f({ choices: [{ index: 0, delta: { content: t }, ...extra }] });

  it("no finish reason before [DONE]: complete, inferred stop (1g)", async () => {
    const { result, error } = await play([text("a"), text("b"), DONE]);
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ text: "ab", finish: "stop", rawFinish: null });
  });

  it("no finish reason before [DONE] with calls: inferred tool_calls", async () => {
    const { result } = await play(openaiStream().toolCall({ id: "c", name: "n", args: {} }).build().frames!);
    expect(result).toMatchObject({ finish: "tool_calls", rawFinish: null });
  });

  it('finish_reason "" on every chunk and role ""', async () => {
    const { result } = await play([
      f({ choices: [{ index: 0, delta: { role: "", content: "x" }, finish_reason: "" }] }),
      f({ choices: [{ index: 0, delta: { role: "", content: "y" }, finish_reason: "" }] }),
      DONE,
    ]);
    expect(result).toMatchObject({ text: "xy", finish: "stop", rawFinish: null });
  });

  it("finish_reason key missing on intermediate chunks (xAI)", async () => {
    const { result } = await play([
      f({ choices: [{ index: 0, delta: { content: "x" } }] }),
      f({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }),
    ]);
    expect(result).toMatchObject({ text: "x", finish: "stop", rawFinish: "stop" });
  });

  it.each([
    ["length", "length"],
    ["content_filter", "content_filter"],
    ["refusal", "content_filter"],
    ["function_call", "tool_calls"],
    ["eos", "other:eos"],
  ])("normalizes %s to %s and keeps the raw value", async (raw, normalized) => {
    const { result } = await play([
      text("t"),
      f({ choices: [{ index: 0, delta: {}, finish_reason: raw }] }),
      DONE,
    ]);
    expect(result?.finish).toBe(normalized);
    expect(result?.rawFinish).toBe(raw);
  });

  it("neither finish nor [DONE]: incomplete_stream, retryable, with the usage seen", async () => {
    const { events, error } = await play([
      f({
        choices: [{ index: 0, delta: { content: "partial" }, finish_reason: null }],
        usage: { prompt_tokens: 40, completion_tokens: 3 },
      }),
    ]);
    expect(texts(events, "text_delta")).toBe("partial");
    expect(events.some((e) => e.type === "done")).toBe(false);
    expect(error?.errorClass).toBe("incomplete_stream");
    expect(error?.retryable).toBe(true);
    expect(error?.usage).toEqual({ prompt: 40, completion: 3, cacheRead: 0, cacheWrite: 0 });
  });

  it("a frame whose JSON does not parse: incomplete_stream", async () => {
    const { error } = await play(openaiStream().text("a").malformed().finish("stop").build().frames!);
    expect(error?.errorClass).toBe("incomplete_stream");
    expect(error?.retryable).toBe(true);
  });

  it("ignores comment lines and frames after [DONE]", async () => {
    const { result } = await play([
      ": OPENROUTER PROCESSING\n\n",
      text("a"),
      ": keep-alive\n\n",
      DONE,
      text("ignored"),
    ]);
    expect(result?.text).toBe("a");
  });
});

describe("deltas and usage", () => {
  it("reads Ollama/Groq `reasoning` and never doubles a server that sends both fields", async () => {
    const { result } = await play([
      f({ choices: [{ index: 0, delta: { reasoning: "think " }, finish_reason: null }] }),
      f({
        choices: [{ index: 0, delta: { reasoning: "more", reasoning_content: "more" }, finish_reason: null }],
      }),
      f({ choices: [{ index: 0, delta: { content: "done" }, finish_reason: "stop" }] }),
      DONE,
    ]);
    expect(result?.reasoning).toBe("think more");
    expect(result?.text).toBe("done");
  });

  it("uses candidate zero only (R-PROV-4)", async () => {
    const { result } = await play([
      f({
        choices: [
          { index: 0, delta: { content: "zero" }, finish_reason: null },
          { index: 1, delta: { content: "one" }, finish_reason: null },
        ],
      }),
      f({
        choices: [
          {
            index: 1,
            delta: {
              content: " ONE",
              tool_calls: [{ index: 0, id: "x", function: { name: "n", arguments: "{}" } }],
            },
            finish_reason: "length",
          },
        ],
      }),
      f({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }),
      DONE,
    ]);
    expect(result).toMatchObject({ text: "zero", finish: "stop", toolCalls: [] });
  });

  it("Groq x_groq.usage as a fallback (1j)", async () => {
    const { result } = await play([
      f({
        choices: [{ index: 0, delta: { content: "x" }, finish_reason: "stop" }],
        x_groq: { id: "req", usage: { prompt_tokens: 7, completion_tokens: 2, queue_time: 0.1 } },
      }),
      DONE,
    ]);
    expect(result?.usage).toEqual({ prompt: 7, completion: 2, cacheRead: 0, cacheWrite: 0 });
  });

  it("Vertex usage without completion_tokens", async () => {
    const { result } = await play(
      openaiStream().text("x").finish("stop").usage({ prompt_tokens: 12 }).build().frames!,
    );
    expect(result?.usage).toEqual({ prompt: 12, completion: 0, cacheRead: 0, cacheWrite: 0 });
  });

  it("usage events are cumulative snapshots, emitted only on change", async () => {
    const u = { prompt_tokens: 5, completion_tokens: 1 };
    const { events } = await play([
      f({ choices: [{ index: 0, delta: { content: "a" }, finish_reason: null }], usage: u }),
      f({ choices: [{ index: 0, delta: { content: "b" }, finish_reason: null }], usage: u }),
      f({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: { ...u, completion_tokens: 2 } }),
      DONE,
    ]);
    expect(events.filter((e) => e.type === "usage").map((e) => (e as any).usage.completion)).toEqual([1, 2]);
  });
});

describe("in-stream errors (R-PROV-3)", () => {
  it("OpenAI error object mid-stream: retryable server error, usage attached", async () => {
    const { events, error } = await play([
      f({
        choices: [{ index: 0, delta: { content: "Hel" }, finish_reason: null }],
        usage: { prompt_tokens: 9, completion_tokens: 1 },
      }),
      f({
        error: {
          message: "The server had an error while processing your request. Sorry about that!",
          type: "server_error",
        },
      }),
    ]);
    expect(texts(events, "text_delta")).toBe("Hel");
    expect(error?.errorClass).toBe("server");
    expect(error?.retryable).toBe(true);
    expect(error?.message).toContain("The server had an error");
    expect(error?.usage?.prompt).toBe(9);
  });

  it("OpenRouter finish_reason error with an error object (1k)", async () => {
    const { error } = await play([
      ": OPENROUTER PROCESSING\n\n",
      f({
        id: "cmpl-abc123",
        object: "chat.completion.chunk",
        created: 1234567890,
        model: "gpt-3.5-turbo",
        provider: "openai",
        error: { code: "server_error", message: "Provider disconnected unexpectedly" },
        choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
      }),
    ]);
    expect(error?.errorClass).toBe("server");
    expect(error?.retryable).toBe(true);
    expect(error?.message).toBe("Provider disconnected unexpectedly");
  });

  it("vLLM object error mid-stream", async () => {
    const { error } = await play([
      f({
        object: "error",
        message: "context length exceeded: maximum context length is 4096",
        type: "BadRequestError",
        code: 400,
      }),
    ]);
    expect(error?.errorClass).toBe("context_overflow");
    expect(error?.retryable).toBe(false);
  });

  it("builder error() frame", async () => {
    const { error } = await play(
      openaiStream()
        .text("x")
        .error({ message: "quota", type: "insufficient_quota", code: "insufficient_quota" })
        .build().frames!,
    );
    expect(error?.errorClass).toBe("quota");
  });
});
