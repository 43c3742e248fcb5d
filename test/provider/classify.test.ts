import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  classifyHttpError,
  classifyStreamError,
  parseRetryAfter,
  redactSecrets,
} from "../../src/provider/classify.js";
import type { ProviderErrorClass } from "../../src/provider/errors.js";
import { FakeProvider } from "../support/fake-provider.js";
import { openaiError } from "../support/openai-script.js";
import { collect } from "./openai-helpers.js";

interface Row {
  name: string;
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  errorClass: ProviderErrorClass;
  retryable: boolean;
  message?: string | RegExp;
  retryAfterMs?: number;
}

const ROWS: Row[] = [
  {
    name: "OpenAI context_length_exceeded",
    status: 400,
    body: {
      error: {
        message:
          "This model's maximum context length is 8192 tokens. However, your messages resulted in 8227 tokens. Please reduce the length of the messages.",
        type: "invalid_request_error",
        param: "messages",
        code: "context_length_exceeded",
      },
    },
    errorClass: "context_overflow",
    retryable: false,
    message: /^This model's maximum context length is 8192 tokens/,
  },
  {
    name: "OpenAI newer overflow wording",
    status: 400,
    body: {
      error: {
        message:
          "Input tokens exceed the configured limit of 272000 tokens. Your messages resulted in 3148588 tokens.",
        type: "invalid_request_error",
        param: null,
        code: null,
      },
    },
    errorClass: "context_overflow",
    retryable: false,
  },
  {
    name: "DeepSeek overflow (code invalid_request_error)",
    status: 400,
    body: {
      error: {
        message: "This model's maximum context length is 65536 tokens. However, you requested 70000 tokens.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_request_error",
      },
    },
    errorClass: "context_overflow",
    retryable: false,
  },
  {
    name: "llama.cpp exceed_context_size_error",
    status: 400,
    body: {
      error: {
        code: 400,
        message: "request (13392 tokens) exceeds the available context size (8192 tokens), try increasing it",
        type: "exceed_context_size_error",
        n_prompt_tokens: 13392,
        n_ctx: 8192,
      },
    },
    errorClass: "context_overflow",
    retryable: false,
  },
  {
    name: "Anthropic prompt is too long",
    status: 400,
    body: {
      type: "error",
      error: { type: "invalid_request_error", message: "prompt is too long: 205429 tokens > 200000 maximum" },
      request_id: "req_1",
    },
    errorClass: "context_overflow",
    retryable: false,
    message: "prompt is too long: 205429 tokens > 200000 maximum",
  },
  {
    name: "OpenAI insufficient_quota",
    status: 429,
    body: {
      error: {
        message:
          "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.",
        type: "insufficient_quota",
        param: null,
        code: "insufficient_quota",
      },
    },
    headers: { "retry-after": "1" },
    errorClass: "quota",
    retryable: false,
  },
  {
    name: "older quota body (code null)",
    status: 429,
    body: {
      error: {
        message: "You exceeded your current quota.",
        type: "insufficient_quota",
        param: null,
        code: null,
      },
    },
    errorClass: "quota",
    retryable: false,
  },
  {
    name: "insufficient_quota_org",
    status: 429,
    body: { error: { message: "Quota", type: "requests", code: "insufficient_quota_org" } },
    errorClass: "quota",
    retryable: false,
  },
  {
    name: "quota message only",
    status: 429,
    body: { error: { message: "You exceeded your current quota, please check your plan." } },
    errorClass: "quota",
    retryable: false,
  },
  {
    name: "OpenRouter 402 credits",
    status: 402,
    body: {
      error: { code: 402, message: "Insufficient credits. Add more using https://openrouter.ai/credits" },
    },
    errorClass: "quota",
    retryable: false,
  },
  {
    name: "Anthropic billing_error",
    status: 402,
    body: { type: "error", error: { type: "billing_error", message: "Your credit balance is too low" } },
    errorClass: "quota",
    retryable: false,
  },
  {
    name: "OpenAI rate limit with retry-after-ms",
    status: 429,
    body: {
      error: {
        message:
          "Rate limit reached for gpt-4o in organization org-x on tokens per min (TPM): Limit 30000. Please try again in 18.642s.",
        type: "tokens",
        param: null,
        code: "rate_limit_exceeded",
      },
    },
    headers: { "retry-after-ms": "1500", "retry-after": "20" },
    errorClass: "rate_limit",
    retryable: true,
    retryAfterMs: 1500,
  },
  {
    name: "Anthropic 429 with retry-after seconds",
    status: 429,
    body: {
      type: "error",
      error: { type: "rate_limit_error", message: "Number of request tokens has exceeded your rate limit" },
    },
    headers: { "retry-after": "7" },
    errorClass: "rate_limit",
    retryable: true,
    retryAfterMs: 7000,
  },
  {
    name: "invalid_prompt",
    status: 400,
    body: {
      error: {
        message: "Invalid prompt: your prompt was flagged as potentially violating our usage policy.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_prompt",
      },
    },
    errorClass: "invalid_prompt",
    retryable: false,
  },
  {
    name: "OpenAI 401 incorrect key",
    status: 401,
    body: {
      error: {
        message:
          "Incorrect API key provided: sk-VK…wjh3. You can find your API key at https://platform.openai.com/account/api-keys.",
        type: "invalid_request_error",
        param: null,
        code: "invalid_api_key",
      },
    },
    errorClass: "auth",
    retryable: false,
  },
  {
    name: "Anthropic 401",
    status: 401,
    body: { type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } },
    errorClass: "auth",
    retryable: false,
    message: "invalid x-api-key",
  },
  {
    name: "403",
    status: 403,
    body: { type: "error", error: { type: "permission_error", message: "no access" } },
    errorClass: "auth",
    retryable: false,
  },
  {
    name: "404 retried",
    status: 404,
    body: { type: "error", error: { type: "not_found_error", message: "model: nope" } },
    errorClass: "not_found",
    retryable: true,
  },
  {
    name: "408",
    status: 408,
    body: { error: { message: "timeout" } },
    errorClass: "timeout",
    retryable: true,
  },
  {
    name: "413 request too large",
    status: 413,
    body: { type: "error", error: { type: "request_too_large", message: "too large" } },
    errorClass: "bad_request",
    retryable: false,
  },
  {
    name: "plain 400",
    status: 400,
    body: { error: { message: "bad field" } },
    errorClass: "bad_request",
    retryable: false,
  },
  {
    name: "422",
    status: 422,
    body: { detail: "unprocessable" },
    errorClass: "bad_request",
    retryable: false,
  },
  {
    name: "500",
    status: 500,
    body: { error: { message: "boom", type: "server_error" } },
    errorClass: "server",
    retryable: true,
  },
  {
    name: "502 html",
    status: 502,
    body: "<html>\n<body>Bad Gateway</body>\n</html>",
    errorClass: "server",
    retryable: true,
    message: "Bad Gateway",
  },
  { name: "503", status: 503, body: "", errorClass: "server", retryable: true, message: "HTTP 503" },
  {
    name: "504 Anthropic timeout_error",
    status: 504,
    body: { type: "error", error: { type: "timeout_error", message: "t" } },
    errorClass: "server",
    retryable: true,
  },
  {
    name: "529 overloaded",
    status: 529,
    body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } },
    errorClass: "overloaded",
    retryable: true,
    message: "Overloaded",
  },
  {
    name: "Gemini array form",
    status: 400,
    body: [
      {
        error: {
          code: 400,
          message: "Function call is missing a thought_signature",
          status: "INVALID_ARGUMENT",
        },
      },
    ],
    errorClass: "bad_request",
    retryable: false,
    message: "Function call is missing a thought_signature",
  },
  {
    name: "vLLM object error",
    status: 400,
    body: {
      object: "error",
      message: "This model's maximum context length is 4096 tokens.",
      type: "BadRequestError",
      code: 400,
    },
    errorClass: "context_overflow",
    retryable: false,
  },
  {
    name: "Ollama string error",
    status: 404,
    body: { error: "model 'qwen3' not found" },
    errorClass: "not_found",
    retryable: true,
    message: "model 'qwen3' not found",
  },
];

describe("classifyHttpError over HTTP (R-RETRY-1, wire-facts §3)", () => {
  let provider: FakeProvider;
  beforeAll(async () => {
    provider = await FakeProvider.start();
  });
  afterAll(async () => {
    await provider.close();
  });

  for (const row of ROWS) {
    it(row.name, async () => {
      provider.enqueue(openaiError(row.status, row.body as any, row.headers));
      const { error, events } = await collect(provider);
      expect(events).toEqual([]);
      expect(error?.errorClass).toBe(row.errorClass);
      expect(error?.retryable).toBe(row.retryable);
      expect(error?.status).toBe(row.status);
      if (row.message instanceof RegExp) expect(error?.message).toMatch(row.message);
      else if (row.message !== undefined) expect(error?.message).toBe(row.message);
      if (row.retryAfterMs !== undefined) expect(error?.retryAfterMs).toBe(row.retryAfterMs);
      if (!row.retryable) expect(error?.retryAfterMs).toBeUndefined();
      expect(error?.message).not.toMatch(/\n/);
      expect(error?.message.length).toBeLessThanOrEqual(300);
    });
  }
});

describe("operator messages", () => {
  it("never leaks the key fragment of OpenAI's 401 message", () => {
    const body = JSON.stringify({
      error: {
        message: "Incorrect API key provided: sk-VK…wjh3. You can find your API key at https://x.",
        code: "invalid_api_key",
      },
    });
    const error = classifyHttpError(401, body, {});
    expect(error.message).not.toContain("VK");
    expect(error.message).not.toContain("wjh3");
    expect(error.message).toContain("Incorrect API key provided: [redacted]");
  });

  it("shortens a long message to one line of at most 300 characters", () => {
    const error = classifyHttpError(
      400,
      JSON.stringify({ error: { message: `first\nsecond ${"word ".repeat(200)}` } }),
      {},
    );
    expect(error.message.startsWith("first second word")).toBe(true);
    expect(error.message.length).toBe(300);
    expect(error.message.endsWith("…")).toBe(true);
  });

  it("redacts a key echoed in a non-JSON body", () => {
    const error = classifyHttpError(
      500,
      "upstream rejected Authorization: Bearer sk-proj-abcdefghijklmnop1234567890",
      {},
    );
    expect(error.message).not.toContain("abcdefghijklmnop");
  });
});

describe("classifyStreamError (in-stream error objects)", () => {
  it.each([
    [
      "OpenAI server_error",
      {
        error: {
          message: "The server had an error while processing your request. Sorry about that!",
          type: "server_error",
        },
      },
      "server",
      true,
    ],
    [
      "OpenRouter finish_reason error",
      {
        id: "cmpl-abc123",
        provider: "openai",
        error: { code: "server_error", message: "Provider disconnected unexpectedly" },
        choices: [{ index: 0, delta: { content: "" }, finish_reason: "error" }],
      },
      "server",
      true,
    ],
    [
      "OpenRouter numeric 429",
      { error: { code: 429, message: "Rate limited upstream" } },
      "rate_limit",
      true,
    ],
    [
      "vLLM object error",
      { object: "error", message: "engine dead", type: "InternalServerError", code: 500 },
      "server",
      true,
    ],
    [
      "Anthropic overloaded",
      { type: "error", error: { details: null, type: "overloaded_error", message: "Overloaded" } },
      "overloaded",
      true,
    ],
    [
      "Anthropic api_error",
      { type: "error", error: { type: "api_error", message: "Internal" } },
      "server",
      true,
    ],
    [
      "llama.cpp error",
      { error: { code: 500, message: "Cannot use tools with stream", type: "server_error" } },
      "server",
      true,
    ],
    [
      "in-stream overflow",
      { error: { message: "prompt is too long: 9 > 8", type: "invalid_request_error" } },
      "context_overflow",
      false,
    ],
    [
      "in-stream quota",
      { error: { message: "quota", type: "insufficient_quota", code: "insufficient_quota" } },
      "quota",
      false,
    ],
    [
      "in-stream auth",
      { type: "error", error: { type: "authentication_error", message: "bad key" } },
      "auth",
      false,
    ],
    [
      "unknown shape defaults to a retryable server error",
      { error: { message: "something odd" } },
      "server",
      true,
    ],
  ] as const)("%s", (_name, payload, errorClass, retryable) => {
    const error = classifyStreamError(payload);
    expect(error.errorClass).toBe(errorClass);
    expect(error.retryable).toBe(retryable);
  });

  it("keeps the provider's message", () => {
    expect(
      classifyStreamError({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } })
        .message,
    ).toBe("Overloaded");
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-01-01T00:00:00Z");
  it("prefers retry-after-ms", () => {
    expect(parseRetryAfter({ "retry-after-ms": "250.5", "retry-after": "9" }, now)).toBe(251);
  });
  it("reads seconds, including fractions", () => {
    expect(parseRetryAfter({ "retry-after": "3" }, now)).toBe(3000);
    expect(parseRetryAfter({ "retry-after": "0.5" }, now)).toBe(500);
  });
  it("reads an HTTP date relative to now", () => {
    expect(parseRetryAfter({ "retry-after": "Wed, 01 Jan 2025 00:00:12 GMT" }, now)).toBe(12_000);
    expect(parseRetryAfter({ "retry-after": "Tue, 31 Dec 2024 23:00:00 GMT" }, now)).toBe(0);
  });
  it("ignores garbage and absent headers, and falls back from a bad retry-after-ms", () => {
    expect(parseRetryAfter({ "retry-after": "soon" }, now)).toBeUndefined();
    expect(parseRetryAfter({}, now)).toBeUndefined();
    expect(parseRetryAfter({ "retry-after-ms": "x", "retry-after": "2" }, now)).toBe(2000);
  });
  it("accepts header names in any case", () => {
    expect(parseRetryAfter({ "Retry-After": "4" }, now)).toBe(4000);
  });
});

describe("redactSecrets", () => {
  it.each([
    "sk-proj-AbCdEf0123456789AbCdEf0123456789",
    "sk-ant-api03-AbCdEf0123456789_AbCdEf0123456789-xyz",
    "sk-VK…wjh3",
    "AIzaSyA1234567890abcdefghijklmnopqrstu",
    "gsk_ABCDEFGHIJKLMNOP1234567890abcdefghij",
  ])("hides %s", (secret) => {
    const out = redactSecrets(`key was ${secret} here`);
    expect(out).not.toContain(secret);
    expect(out.startsWith("key was ")).toBe(true);
    expect(out.endsWith(" here")).toBe(true);
  });

  it("hides bearer tokens and key assignments", () => {
    expect(redactSecrets("Authorization: Bearer abc.def")).not.toContain("abc.def");
    expect(redactSecrets('{"x-api-key": "short-key"}')).not.toContain("short-key");
    expect(redactSecrets("api_key=hunter2&x=1")).not.toContain("hunter2");
  });

  it("leaves ordinary text alone", () => {
    const text =
      "This model's maximum context length is 8192 tokens; task-based ask-me disk-usage, see https://platform.openai.com/docs.";
    expect(redactSecrets(text)).toBe(text);
  });
});
