// Chat Completions shapes beyond the recorded ones that compatible servers and gateways send
// (R-PROV-2…6), over real HTTP: Anthropic stop reasons passed through a gateway, arguments as a
// JSON object, tool-call ids that change between chunks, a whole `message` in a stream chunk, an
// error frame that is an array, cache writes in the usage, a connection that outlives the answer
// (kept open after [DONE], stalled or reset after the finish), a multi-byte character split
// between two network writes.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIChatAdapter } from "../../src/provider/openai-chat.js";
import { streamWithRetry } from "../../src/provider/retry.js";
import { FakeProvider, sseData as f } from "../support/fake-provider.js";
import { openaiStream } from "../support/openai-script.js";
import { baseRequest, collect, retryOptions, texts } from "./openai-helpers.js";

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

const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
  f({
    id: "c",
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });
const call = (id: string, name: string, args: unknown) => ({
  index: 0,
  id,
  type: "function",
  function: { name, arguments: args },
});

describe("finish reasons a gateway passes through from Anthropic (R-PROV-5)", () => {
  it("tool_use with calls is a tool request", async () => {
    const { result, error } = await play([
      chunk({ tool_calls: [call("c1", "read_file", '{"path":"a"}')] }, "tool_use"),
      DONE,
    ]);
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ finish: "tool_calls", rawFinish: "tool_use" });
    expect(result?.toolCalls).toEqual([{ id: "c1", name: "read_file", arguments: '{"path":"a"}' }]);
  });

  it("end_turn and stop_sequence are stop; max_tokens is length", async () => {
    for (const [raw, finish] of [
      ["end_turn", "stop"],
      ["stop_sequence", "stop"],
      ["max_tokens", "length"],
    ]) {
      const { result } = await play([chunk({ content: "x" }, raw), DONE]);
      expect(result, raw).toMatchObject({ text: "x", finish, rawFinish: raw });
    }
  });

  it("end_turn beside tool calls still runs them", async () => {
    const { result } = await play([
      chunk({ tool_calls: [call("c1", "glob", '{"pattern":"*"}')] }, "end_turn"),
      DONE,
    ]);
    expect(result?.finish).toBe("tool_calls");
  });
});

describe("finish reasons that are server failures", () => {
  it("DeepSeek's insufficient_system_resource is a retryable server error carrying the usage seen", async () => {
    const { error } = await play([
      chunk({ content: "The answer is" }),
      chunk({}, "insufficient_system_resource", { usage: { prompt_tokens: 40, completion_tokens: 3 } }),
      DONE,
    ]);
    expect(error).toMatchObject({ errorClass: "server", retryable: true });
    expect(error?.message).toContain("insufficient_system_resource");
    expect(error?.usage).toEqual({ prompt: 40, completion: 3, cacheRead: 0, cacheWrite: 0 });
  });
});

describe("tool-call arguments", () => {
  it("arguments sent as a JSON object are kept as its JSON text, not dropped", async () => {
    const { events, result } = await play([
      chunk({ tool_calls: [call("c1", "read_file", { path: "src/a.ts", offset: 2 })] }, "tool_calls"),
      DONE,
    ]);
    expect(result?.toolCalls).toEqual([
      { id: "c1", name: "read_file", arguments: '{"path":"src/a.ts","offset":2}' },
    ]);
    const deltas = events.flatMap((e) => (e.type === "tool_call_delta" ? [e.argumentsDelta] : []));
    expect(deltas.join("")).toBe('{"path":"src/a.ts","offset":2}');
  });
});

describe("tool-call ids that change between chunks (Poolside)", () => {
  it("continuations carrying a fresh id but no name belong to the call they continue", async () => {
    const part = (index: number, id: string, fn: object) => ({ index, id, type: "function", function: fn });
    const { result } = await play([
      chunk({ tool_calls: [part(0, "call_A", { name: "read_file", arguments: "" })] }),
      chunk({ tool_calls: [part(0, "call_A2", { arguments: '{"path":' })] }),
      chunk({ tool_calls: [part(1, "call_B", { name: "glob", arguments: "" })] }),
      chunk({ tool_calls: [part(0, "call_A3", { arguments: '"a.ts"}' })] }),
      chunk({ tool_calls: [part(1, "call_B2", { arguments: '{"pattern":"*"}' })] }),
      chunk({}, "tool_calls"),
      DONE,
    ]);
    expect(result?.toolCalls).toEqual([
      { id: "call_A", name: "read_file", arguments: '{"path":"a.ts"}' },
      { id: "call_B", name: "glob", arguments: '{"pattern":"*"}' },
    ]);
  });

  it("without indexes too", async () => {
    const { result } = await play([
      chunk({ tool_calls: [{ id: "call_A", function: { name: "read_file", arguments: '{"path":' } }] }),
      chunk({ tool_calls: [{ id: "call_A2", function: { arguments: '"a.ts"}' } }] }),
      chunk({ tool_calls: [{ id: "call_B", function: { name: "glob", arguments: "{}" } }] }),
      chunk({}, "tool_calls"),
      DONE,
    ]);
    expect(result?.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ["call_A", "read_file", '{"path":"a.ts"}'],
      ["call_B", "glob", "{}"],
    ]);
  });

  it("a named delta with a new id at a used index is still a new call (index 0 reused for every call)", async () => {
    const { result } = await play([
      chunk({ tool_calls: [call("call_A", "read_file", "{}")] }),
      chunk({ tool_calls: [call("call_B", "glob", "{}")] }),
      chunk({}, "tool_calls"),
      DONE,
    ]);
    expect(result?.toolCalls.map((c) => c.id)).toEqual(["call_A", "call_B"]);
  });
});

describe("chunk shapes", () => {
  it("a stream chunk holding a whole `message` instead of a `delta` is read", async () => {
    const { events, result } = await play([
      f({
        id: "c",
        object: "chat.completion.chunk",
        choices: [
          { index: 0, message: { role: "assistant", content: "Whole answer." }, finish_reason: "stop" },
        ],
      }),
      DONE,
    ]);
    expect(texts(events, "text_delta")).toBe("Whole answer.");
    expect(result).toMatchObject({ text: "Whole answer.", finish: "stop" });
  });

  it("a delta wins over a `message` in the same chunk (Perplexity sends both, the message cumulative)", async () => {
    const { result } = await play([
      chunk({ content: "Hel" }, null, {}),
      f({
        choices: [{ index: 0, delta: { content: "lo" }, message: { role: "assistant", content: "Hello" } }],
      }),
      chunk({}, "stop"),
      DONE,
    ]);
    expect(result?.text).toBe("Hello");
  });

  it("an error frame that is an array (Gemini) is classified, not taken for a cut stream", async () => {
    const { error } = await play([
      chunk({ content: "x" }),
      f([
        {
          error: { code: 400, message: "Request contains an invalid argument.", status: "INVALID_ARGUMENT" },
        },
      ]),
    ]);
    expect(error).toMatchObject({ errorClass: "bad_request", retryable: false, status: 400 });
    expect(error?.message).toContain("invalid argument");
  });

  it("an array error frame with a server status is retryable", async () => {
    const { error } = await play([
      f([
        {
          error: {
            code: 503,
            message: "The model is overloaded. Please try again later.",
            status: "UNAVAILABLE",
          },
        },
      ]),
    ]);
    expect(error).toMatchObject({ errorClass: "server", retryable: true, status: 503 });
  });
});

describe("usage (R-PROV-6)", () => {
  it("OpenRouter's cache_write_tokens are cache writes, priced apart from plain input", async () => {
    const { result } = await play([
      chunk({ content: "x" }, "stop"),
      f({
        choices: [],
        usage: {
          prompt_tokens: 194,
          completion_tokens: 2,
          total_tokens: 196,
          prompt_tokens_details: { cached_tokens: 50, cache_write_tokens: 100, audio_tokens: 0 },
          cost: 0.95,
        },
      }),
      DONE,
    ]);
    expect(result?.usage).toEqual({ prompt: 194, completion: 2, cacheRead: 50, cacheWrite: 100 });
  });
});

describe("a connection that outlives the answer (R-PROV-3: re-sending a whole answer bills it twice)", () => {
  const answer = () =>
    openaiStream().text("hi").finish("stop").usage({ prompt_tokens: 3, completion_tokens: 1 }).build();

  it("a server that keeps the connection open after [DONE]: the answer is read at once, no idle timeout", async () => {
    const script = answer();
    provider.enqueue({ ...script, fault: { kind: "stall_after", frames: script.frames!.length } });
    // An idle timeout longer than the test's own: only reading stopped at [DONE] can pass.
    const { result, error } = await collect(provider, baseRequest(), { idleTimeoutMs: 60_000 });
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ text: "hi", finish: "stop", usage: { prompt: 3, completion: 1 } });
  });

  it("a stall after the finish reason (no [DONE]) ends the answer, not the attempt", async () => {
    const script = openaiStream()
      .text("hi")
      .finish("stop", { usage: { prompt_tokens: 3, completion_tokens: 1 } })
      .noDone()
      .build();
    provider.enqueue({ ...script, fault: { kind: "stall_after", frames: script.frames!.length } });
    const { result, error } = await collect(provider, baseRequest(), { idleTimeoutMs: 2000 });
    expect(error).toBeUndefined();
    expect(result).toMatchObject({ text: "hi", finish: "stop", usage: { prompt: 3, completion: 1 } });
  });

  it("a reset after the finish reason (Mistral: finish and usage in one frame, no [DONE]) is one request", async () => {
    const script = openaiStream()
      .toolCall({ id: "gSIMJiOkT", name: "read_file", args: { path: "a" } })
      .finish("tool_calls", { usage: { prompt_tokens: 124, completion_tokens: 22 } })
      .noDone()
      .build();
    provider.enqueue({ ...script, fault: { kind: "reset_after", frames: script.frames!.length } });
    const before = provider.requests.length;
    const adapter = createOpenAIChatAdapter({ api: "openai-chat", baseUrl: provider.baseUrl, headers: {} });
    const result = await streamWithRetry(
      adapter,
      baseRequest(),
      retryOptions({
        retry: { maxRetries: 2, baseDelaySeconds: 0.01, factor: 2, jitter: 0, maxDelaySeconds: 0.01 },
      }),
    );
    expect(provider.requests.length - before).toBe(1);
    expect(result).toMatchObject({ finish: "tool_calls", usage: { prompt: 124, completion: 22 } });
    expect(result.toolCalls).toEqual([{ id: "gSIMJiOkT", name: "read_file", arguments: '{"path":"a"}' }]);
  });

  it("a reset before any finish reason is still an incomplete attempt (retryable)", async () => {
    const script = openaiStream().text("partial").finish("stop").build();
    provider.enqueue({ ...script, fault: { kind: "reset_after", frames: 1 } });
    const { error } = await collect(provider);
    expect(error).toMatchObject({ retryable: true });
  });
});

describe("cached tokens where other servers put them", () => {
  it("Moonshot's cached_tokens on the usage object are cache reads", async () => {
    const { result } = await play([
      chunk({ content: "x" }, "stop", {
        usage: { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020, cached_tokens: 768 },
      }),
      DONE,
    ]);
    expect(result?.usage).toEqual({ prompt: 1000, completion: 20, cacheRead: 768, cacheWrite: 0 });
  });
});

describe("bytes on the wire", () => {
  it("a multi-byte character split between two writes, CRLF split between two writes", async () => {
    const text = "héllo 日本語 🎉";
    const body = Buffer.from(
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: text } }] })}\r\n\r\n` +
        `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] })}\r\n\r\n${DONE}`,
      "utf8",
    );
    // Cut inside the emoji (4 bytes) and between the \r and \n of the first frame's end.
    const emoji = body.indexOf(Buffer.from("🎉")) + 2;
    const crlf = body.indexOf(Buffer.from("\r\n\r\n")) + 1;
    const cuts = [0, crlf, emoji, body.length].sort((a, b) => a - b);
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", async () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        for (let i = 1; i < cuts.length; i++) {
          res.write(body.subarray(cuts[i - 1], cuts[i]));
          // Separate writes reach the client as separate reads.
          await new Promise((resolve) => setTimeout(resolve, 30));
        }
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const adapter = createOpenAIChatAdapter({
        api: "openai-chat",
        baseUrl: `http://127.0.0.1:${port}/v1`,
        headers: {},
      });
      let seen = "";
      for await (const event of adapter.stream(baseRequest(), {
        signal: new AbortController().signal,
        idleTimeoutMs: 20_000,
      })) {
        if (event.type === "text_delta") seen += event.text;
      }
      expect(seen).toBe(text);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
