// Anthropic's request rules and stream endings as the real API has them: tool definitions beside
// tool blocks (kept with tool_choice none, or the blocks rendered as text when there are none), a
// stream whose stop reason came but whose message_stop did not is complete (no second bill), the
// "input length and max_tokens exceed context limit" answer re-sent once with a fitting max_tokens,
// and the model_context_window_exceeded stop reason as an overflow (R-PROV-3, R-RETRY-1, R-COMP-2).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RetryConfig } from "../../src/config/types.js";
import { createAnthropicAdapter } from "../../src/provider/anthropic-messages.js";
import { buildAnthropicBody } from "../../src/provider/anthropic-request.js";
import { classifyHttpError } from "../../src/provider/classify.js";
import { ProviderError } from "../../src/provider/errors.js";
import { type RetryScheduled, streamWithRetry } from "../../src/provider/retry.js";
import type { NormalizedRequest } from "../../src/provider/types.js";
import { anthropicError, anthropicStream } from "../support/anthropic-script.js";
import { anthropicViolations } from "../support/request-rules.js";
import { FakeProvider } from "../support/fake-provider.js";
import type { Message } from "../../src/vocab/messages.js";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
});

const RETRY: RetryConfig = {
  maxRetries: 2,
  baseDelaySeconds: 0.01,
  factor: 2,
  jitter: 0,
  maxDelaySeconds: 1,
};
const READ = { name: "read_file", description: "Reads a file", parameters: { type: "object" } };

const history: Message[] = [
  { role: "user", content: [{ type: "text", text: "what is in a.txt?" }] },
  {
    role: "assistant",
    text: "Reading it.",
    reasoning: "",
    toolCalls: [{ id: "toolu_9", name: "read_file", arguments: '{"path":"a.txt"}' }],
  },
  {
    role: "tool",
    toolCallId: "toolu_9",
    toolName: "read_file",
    content: [{ type: "text", text: "alpha" }],
    isError: false,
  },
  { role: "assistant", text: "It says alpha.", reasoning: "", toolCalls: [] },
  { role: "user", content: [{ type: "text", text: "and now?" }] },
];

function request(over: Partial<NormalizedRequest> = {}): NormalizedRequest {
  return {
    model: "claude-test",
    system: "Be brief.",
    tools: [READ],
    messages: history,
    images: false,
    ...over,
  };
}

async function run(req: NormalizedRequest, idleTimeoutMs = 10_000, retries: RetryScheduled[] = []) {
  const adapter = createAnthropicAdapter({
    api: "anthropic-messages",
    baseUrl: fake.baseUrl,
    apiKey: "k",
    headers: {},
  });
  return streamWithRetry(adapter, req, {
    retry: RETRY,
    signal: new AbortController().signal,
    idleTimeoutMs,
    deadline: null,
    onEvent: () => {},
    onDiscard: () => {},
    onRetry: (info) => retries.push(info),
  });
}

describe("tool definitions beside tool blocks", () => {
  it("a request with tools and tool blocks is legal as it is", () => {
    expect(anthropicViolations(buildAnthropicBody(request()))).toEqual([]);
  });

  it("a summary request keeps the definitions and forbids calls with tool_choice none", () => {
    const body = buildAnthropicBody(request({ toolChoice: "none" }));
    expect(body.tool_choice).toEqual({ type: "none" });
    expect((body.tools as unknown[]).length).toBe(1);
    expect(anthropicViolations(body)).toEqual([]);
    expect(JSON.stringify(body.messages)).toContain('"type":"tool_use"');
  });

  it("with no tools defined, earlier calls and results travel as plain text and the roles still alternate", () => {
    const body = buildAnthropicBody(request({ tools: [] }));
    expect(anthropicViolations(body)).toEqual([]);
    expect(body).not.toHaveProperty("tools");
    expect(body).not.toHaveProperty("tool_choice");
    const text = JSON.stringify(body.messages);
    expect(text).not.toContain("tool_use");
    expect(text).not.toContain("tool_result");
    expect(text).toContain('[tool call toolu_9: read_file {\\"path\\":\\"a.txt\\"}]');
    expect(text).toContain("[result of tool call toolu_9 (read_file)]");
    expect(text).toContain("alpha");
  });
});

describe("stream endings", () => {
  it("a stop reason without message_stop is a whole answer: one request, no retry", async () => {
    fake.enqueue(anthropicStream().text("done").stop("end_turn").noMessageStop().build());
    const retries: RetryScheduled[] = [];
    const result = await run(request(), 10_000, retries);
    expect(result).toMatchObject({ text: "done", finish: "stop" });
    expect(fake.requests).toHaveLength(1);
    expect(retries).toEqual([]);
  });

  it("a connection that stalls after the stop reason is still one whole answer", async () => {
    const stalled = anthropicStream().text("done").stop("tool_use").noMessageStop().build();
    fake.enqueue({ ...stalled, fault: { kind: "stall_after", frames: stalled.frames!.length } });
    // The idle timer ends the stalled connection; 1.5 s, so a loaded machine's slow start of the
    // answer is never mistaken for the stall.
    const result = await run(request(), 1500);
    expect(result.text).toBe("done");
    expect(fake.requests).toHaveLength(1);
  });

  it("a connection cut after the stop reason is still one whole answer", async () => {
    const cut = anthropicStream().text("done").noMessageStop().build();
    fake.enqueue({ ...cut, fault: { kind: "reset_after", frames: cut.frames!.length } });
    expect((await run(request())).text).toBe("done");
    expect(fake.requests).toHaveLength(1);
  });

  it("the stop reason model_context_window_exceeded is a context overflow, not retried", async () => {
    fake.enqueue(
      anthropicStream()
        .text("part")
        .stop("model_context_window_exceeded")
        .usage({ input_tokens: 190000, output_tokens: 10 })
        .build(),
    );
    const error = await run(request()).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ errorClass: "context_overflow", retryable: false });
    expect(error.usage).toMatchObject({ prompt: 190000, completion: 10 });
    expect(fake.requests).toHaveLength(1);
  });
});

describe("input length and max_tokens exceed context limit", () => {
  const TOO_MUCH =
    "input length and `max_tokens` exceed context limit: 195000 + 8192 > 200000, decrease input length or `max_tokens` and try again";

  it("is classified as an overflow that knows the max_tokens that fits", () => {
    const error = classifyHttpError(
      400,
      JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: TOO_MUCH } }),
      {},
    );
    expect(error).toMatchObject({
      errorClass: "context_overflow",
      retryable: false,
      maxOutputTokensFit: 5000,
    });
  });

  it("reads vLLM's wording of the same case, and leaves a true input overflow alone", () => {
    const vllm = classifyHttpError(
      400,
      JSON.stringify({
        object: "error",
        message:
          "This model's maximum context length is 4096 tokens. However, you requested 8300 tokens (108 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.",
        type: "BadRequestError",
        code: 400,
      }),
      {},
    );
    expect(vllm).toMatchObject({ errorClass: "context_overflow", maxOutputTokensFit: 3988 });
    const inputTooLong = classifyHttpError(
      400,
      JSON.stringify({
        error: {
          message:
            "This model's maximum context length is 8192 tokens. However, your messages resulted in 8227 tokens. Please reduce the length of the messages.",
          code: "context_length_exceeded",
        },
      }),
      {},
    );
    expect(inputTooLong.errorClass).toBe("context_overflow");
    expect(inputTooLong.maxOutputTokensFit).toBeUndefined();
  });

  it("is sent again once with max_tokens lowered to fit", async () => {
    fake.enqueue(
      anthropicError(400, "invalid_request_error", TOO_MUCH),
      anthropicStream().text("fits").build(),
    );
    const retries: RetryScheduled[] = [];
    const result = await run(request({ maxOutputTokens: 8192 }), 10_000, retries);
    expect(result.text).toBe("fits");
    expect(fake.requests.map((r) => r.body.max_tokens)).toEqual([8192, 5000]);
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ delayMs: 0, reason: "context_overflow" });
  });

  it("a second refusal is a context overflow", async () => {
    fake.enqueue(
      anthropicError(400, "invalid_request_error", TOO_MUCH),
      anthropicError(400, "invalid_request_error", TOO_MUCH),
    );
    const error = await run(request({ maxOutputTokens: 8192 })).catch((e) => e);
    expect(error).toMatchObject({ errorClass: "context_overflow" });
    expect(fake.requests).toHaveLength(2);
  });
});
