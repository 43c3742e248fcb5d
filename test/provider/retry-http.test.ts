// Retry policy end to end: real adapters against the real fake provider, counting the requests
// the server saw and the exact delays the policy asked to sleep.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RetryConfig } from "../../src/config/types.js";
import { createAnthropicAdapter } from "../../src/provider/anthropic-messages.js";
import { createOpenAIChatAdapter } from "../../src/provider/openai-chat.js";
import { type RetryScheduled, streamWithRetry } from "../../src/provider/retry.js";
import type { NormalizedRequest, ProviderAdapter } from "../../src/provider/types.js";
import { anthropicError, anthropicStream } from "../support/anthropic-script.js";
import { FakeProvider, type ScriptedResponse } from "../support/fake-provider.js";
import { openaiError, openaiStream, openaiText } from "../support/openai-script.js";
import type { Usage } from "../../src/vocab/usage.js";

const retry: RetryConfig = {
  maxRetries: 5,
  baseDelaySeconds: 2,
  factor: 2,
  jitter: 0.25,
  maxDelaySeconds: 30,
};
const request: NormalizedRequest = {
  model: "test-model",
  system: "sys",
  tools: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  images: false,
};

let fake: FakeProvider;
beforeEach(async () => {
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
});

function openai(): ProviderAdapter {
  return createOpenAIChatAdapter({ api: "openai-chat", baseUrl: fake.baseUrl, apiKey: "k", headers: {} });
}
function anthropic(): ProviderAdapter {
  return createAnthropicAdapter({
    api: "anthropic-messages",
    baseUrl: fake.baseUrl,
    apiKey: "k",
    headers: {},
  });
}

function run(
  adapter: ProviderAdapter,
  over: { retry?: RetryConfig; signal?: AbortSignal; req?: NormalizedRequest } = {},
) {
  const log = {
    sleeps: [] as number[],
    retries: [] as RetryScheduled[],
    discards: [] as number[],
    usages: [] as Array<[Usage, number]>,
    text: [] as Array<[string, number]>,
  };
  const promise = streamWithRetry(adapter, over.req ?? request, {
    retry: over.retry ?? retry,
    signal: over.signal ?? new AbortController().signal,
    idleTimeoutMs: 5000,
    deadline: null,
    onEvent: (e, a) => {
      if (e.type === "text_delta") log.text.push([e.text, a]);
    },
    onAttemptUsage: (u, a) => log.usages.push([u, a]),
    onDiscard: (a) => log.discards.push(a),
    onRetry: (r) => log.retries.push(r),
    sleep: async (ms) => {
      log.sleeps.push(ms);
    },
    random: () => 0.5,
  });
  return { promise, log };
}

const rateLimit = (headers: Record<string, string>): ScriptedResponse =>
  openaiError(
    429,
    { error: { message: "Rate limit reached", type: "tokens", code: "rate_limit_exceeded" } },
    headers,
  );

describe("retry over HTTP", () => {
  it("honours retry-after seconds", async () => {
    fake.enqueue(rateLimit({ "retry-after": "3" }), openaiText("ok"));
    const { promise, log } = run(openai());
    expect((await promise).text).toBe("ok");
    expect(log.sleeps).toEqual([3000]);
    expect(log.retries[0]).toMatchObject({ attempt: 2, delayMs: 3000, reason: "rate_limit", status: 429 });
    expect(fake.requests).toHaveLength(2);
  });

  it("prefers retry-after-ms, and is not capped by maxDelay", async () => {
    fake.enqueue(rateLimit({ "retry-after-ms": "45000", "retry-after": "1" }), openaiText("ok"));
    const { promise, log } = run(openai());
    await promise;
    expect(log.sleeps).toEqual([45000]);
  });

  it("reads retry-after as an HTTP date", async () => {
    // Ten minutes ahead, to the second: the wait read back is that date minus the time already
    // passed, and a minute of slack covers a machine that is slow to get the answer through.
    fake.enqueue(
      rateLimit({ "retry-after": new Date(Date.now() + 600_000).toUTCString() }),
      openaiText("ok"),
    );
    const { promise, log } = run(openai());
    await promise;
    expect(log.sleeps[0]).toBeGreaterThan(540_000);
    expect(log.sleeps[0]).toBeLessThanOrEqual(600_000);
  });

  it("does not retry a quota error", async () => {
    fake.enqueue(
      openaiError(429, {
        error: {
          message: "You exceeded your current quota",
          type: "insufficient_quota",
          code: "insufficient_quota",
        },
      }),
      openaiText("never"),
    );
    const { promise, log } = run(openai());
    await expect(promise).rejects.toMatchObject({ errorClass: "quota" });
    expect(fake.requests).toHaveLength(1);
    expect(log.retries).toEqual([]);
  });

  it("retries 500, 502, 529, 408 and 404 with exponential delays", async () => {
    for (const status of [500, 502, 529, 408, 404]) {
      fake.enqueue(openaiError(status, { error: { message: `status ${status}` } }));
    }
    fake.enqueue(openaiText("finally"));
    const { promise, log } = run(openai());
    expect((await promise).text).toBe("finally");
    expect(fake.requests).toHaveLength(6);
    expect(log.sleeps).toEqual([2000, 4000, 8000, 16000, 30000]);
    expect(log.retries.map((r) => r.status)).toEqual([500, 502, 529, 408, 404]);
  });

  it("never sends more than maxRetries + 1 requests", async () => {
    fake.setFallback(openaiError(503, { error: { message: "unavailable" } }));
    const { promise, log } = run(openai(), { retry: { ...retry, maxRetries: 3 } });
    await expect(promise).rejects.toMatchObject({ errorClass: "server", status: 503 });
    expect(fake.requests).toHaveLength(4);
    expect(log.sleeps).toEqual([2000, 4000, 8000]);
  });

  it("discards the text of an attempt that failed mid-stream", async () => {
    fake.enqueue(
      {
        ...openaiStream().text("partial ").text("more").finish("stop").build(),
        fault: { kind: "reset_after", frames: 2 },
      },
      openaiText("clean"),
    );
    const { promise, log } = run(openai());
    expect((await promise).text).toBe("clean");
    expect(log.discards).toEqual([1]);
    expect(log.text.filter(([, a]) => a === 1).length).toBeGreaterThan(0);
    expect(log.text.filter(([, a]) => a === 2).map(([t]) => t)).toEqual(["clean"]);
  });

  it("retries a body-write failure once without delay and without spending the budget", async () => {
    // A body large enough that the server closes the socket before the client finished writing it.
    const big: NormalizedRequest = { ...request, system: "x".repeat(8 * 1024 * 1024) };
    fake.enqueue({ fault: { kind: "close_during_body" } }, openaiText("ok"));
    const ok = run(openai(), { req: big, retry: { ...retry, maxRetries: 0 } });
    expect((await ok.promise).text).toBe("ok");
    expect(ok.log.sleeps).toEqual([]);
    expect(ok.log.retries.map((r) => [r.attempt, r.delayMs, r.reason])).toEqual([[2, 0, "network"]]);

    fake.enqueue(
      { fault: { kind: "close_during_body" } },
      { fault: { kind: "close_during_body" } },
      openaiText("never"),
    );
    const bad = run(openai(), { req: big });
    await expect(bad.promise).rejects.toMatchObject({ errorClass: "network", duringBodyWrite: true });
    expect(fake.requests).toHaveLength(4);
    expect(bad.log.retries).toHaveLength(1);
  });

  it("cancellation during the backoff wait (default sleep) ends at once", async () => {
    fake.enqueue(openaiError(500, { error: { message: "boom" } }), openaiText("never"));
    const ac = new AbortController();
    let scheduled: RetryScheduled | undefined;
    // A ten-minute backoff: only the abort can end the wait within the test's time.
    const promise = streamWithRetry(openai(), request, {
      retry: { ...retry, baseDelaySeconds: 600, maxDelaySeconds: 600, jitter: 0 },
      signal: ac.signal,
      idleTimeoutMs: 5000,
      deadline: null,
      onEvent: () => {},
      onDiscard: () => {},
      onRetry: (info) => {
        scheduled = info;
        setTimeout(() => ac.abort(), 20);
      },
    });
    await expect(promise).rejects.toMatchObject({ errorClass: "cancelled" });
    expect(scheduled).toMatchObject({ attempt: 2, delayMs: 600_000 });
    expect(fake.requests).toHaveLength(1);
  });

  it("Anthropic: an overloaded error event is retried and the failed attempt's usage is reported", async () => {
    fake.enqueue(
      anthropicStream()
        .usage({ input_tokens: 100, output_tokens: 3 })
        .text("lost")
        .errorEvent("overloaded_error", "Overloaded")
        .build(),
      anthropicError(529, "overloaded_error", "Overloaded"),
      anthropicStream().text("kept").usage({ input_tokens: 100, output_tokens: 8 }).build(),
    );
    const { promise, log } = run(anthropic());
    const result = await promise;
    expect(result.text).toBe("kept");
    expect(log.retries.map((r) => [r.reason, r.status])).toEqual([
      ["overloaded", 529],
      ["overloaded", 529],
    ]);
    expect(log.discards).toEqual([1]);
    expect(log.usages).toEqual([
      [{ prompt: 100, completion: 1, cacheRead: 0, cacheWrite: 0 }, 1],
      [{ prompt: 100, completion: 8, cacheRead: 0, cacheWrite: 0 }, 3],
    ]);
    expect(fake.requests.every((r) => r.path === "/v1/messages")).toBe(true);
  });

  it("Anthropic: a 429 with retry-after is retried after exactly that delay", async () => {
    fake.enqueue(
      anthropicError(429, "rate_limit_error", "rate limited", { "retry-after": "12" }),
      anthropicStream().text("ok").build(),
    );
    const { promise, log } = run(anthropic());
    await promise;
    expect(log.sleeps).toEqual([12000]);
  });
});
