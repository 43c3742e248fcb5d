// R-RETRY-1: a server that refuses the asked output limit and says what fits gets the request
// again once, at once, asking for that much — in each server's wording (Anthropic, vLLM old and
// new, Text Generation Inference, OpenAI's per-model output cap). Over real HTTP.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createOpenAIChatAdapter } from "../../src/provider/openai-chat.js";
import { type RetryScheduled, streamWithRetry } from "../../src/provider/retry.js";
import { FakeProvider } from "../support/fake-provider.js";
import { openaiText } from "../support/openai-script.js";
import { baseRequest, retryOptions } from "./openai-helpers.js";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
});

const CASES: Array<[string, number, object, number]> = [
  [
    "vLLM: 'max_tokens' or 'max_completion_tokens' is too large",
    400,
    {
      object: "error",
      message:
        "'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's maximum context length is 4096 tokens and your request has 2778 input tokens (8192 > 4096 - 2778). None",
      type: "BadRequestError",
      param: null,
      code: 400,
    },
    1318,
  ],
  [
    "Text Generation Inference: inputs tokens + max_new_tokens must be <=",
    422,
    {
      error:
        "Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 1000 `inputs` tokens and 8192 `max_new_tokens`",
      error_type: "validation",
    },
    3096,
  ],
  [
    "OpenAI: this model supports at most N completion tokens",
    400,
    {
      error: {
        message:
          "max_tokens is too large: 8192. This model supports at most 4096 completion tokens, whereas you provided 8192.",
        type: "invalid_request_error",
        param: "max_tokens",
        code: "invalid_value",
      },
    },
    4096,
  ],
  [
    "older vLLM: you requested N tokens (M in the messages, K in the completion)",
    400,
    {
      object: "error",
      message:
        "This model's maximum context length is 4096 tokens. However, you requested 8300 tokens (108 in the messages, 8192 in the completion). Please reduce the length of the messages or completion.",
      type: "BadRequestError",
      code: 400,
    },
    3988,
  ],
];

describe("an output limit that does not fit", () => {
  for (const [name, status, body, fit] of CASES) {
    it(`${name}: sent again once, at once, with max_tokens ${fit}`, async () => {
      const before = fake.requests.length;
      fake.enqueue({ status, body: JSON.stringify(body) }, openaiText("fits now"));
      const retries: RetryScheduled[] = [];
      const result = await streamWithRetry(
        createOpenAIChatAdapter({ api: "openai-chat", baseUrl: fake.baseUrl, headers: {} }),
        baseRequest({ maxOutputTokens: 8192 }),
        retryOptions({ onRetry: (r) => retries.push(r) }),
      );
      expect(result.text).toBe("fits now");
      const sent = fake.requests.slice(before);
      expect(sent.map((r) => r.body.max_tokens)).toEqual([8192, fit]);
      expect(retries.map((r) => r.delayMs)).toEqual([0]);
    });
  }

  it("an input that alone fills the window is no output problem: not lowered (an overflow, for compaction)", async () => {
    const before = fake.requests.length;
    fake.enqueue({
      status: 400,
      body: JSON.stringify({
        object: "error",
        message:
          "'max_tokens' or 'max_completion_tokens' is too large: 8192. This model's maximum context length is 4096 tokens and your request has 5000 input tokens (8192 > 4096 - 5000). None",
        code: 400,
      }),
    });
    const error = await streamWithRetry(
      createOpenAIChatAdapter({ api: "openai-chat", baseUrl: fake.baseUrl, headers: {} }),
      baseRequest({ maxOutputTokens: 8192 }),
      retryOptions(),
    ).catch((e) => e);
    expect(error).toMatchObject({ errorClass: "context_overflow", retryable: false });
    expect(fake.requests.length - before).toBe(1);
  });
});
