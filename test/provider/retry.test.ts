// Retry policy against a scripted in-process adapter: exact delays, budgets, discards, cancellation.
import { getEventListeners } from "node:events";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { RetryConfig } from "../../src/config/types.js";
import { ProviderError, type ProviderErrorInit } from "../../src/provider/errors.js";
import {
  abortableSleep,
  computeDelayMs,
  DurationLimitError,
  type RetryScheduled,
  streamWithRetry,
} from "../../src/provider/retry.js";
import type {
  NormalizedRequest,
  ProviderAdapter,
  ProviderEvent,
  StreamResult,
} from "../../src/provider/types.js";
import type { Usage } from "../../src/vocab/usage.js";

const retry: RetryConfig = {
  maxRetries: 5,
  baseDelaySeconds: 2,
  factor: 2,
  jitter: 0.25,
  maxDelaySeconds: 30,
};
const request: NormalizedRequest = { model: "m", system: "", tools: [], messages: [], images: false };

function result(text: string, usage: Usage | null = null): StreamResult {
  return { text, reasoning: "", thinkingBlocks: [], toolCalls: [], finish: "stop", rawFinish: "stop", usage };
}

function perr(init: Partial<ProviderErrorInit> & Pick<ProviderErrorInit, "errorClass">): ProviderError {
  return new ProviderError({ message: init.errorClass, retryable: true, ...init });
}

type Step = { events?: ProviderEvent[]; error?: ProviderError; hang?: boolean };

/** Each call to stream() plays the next step. */
function scriptedAdapter(steps: Step[]): ProviderAdapter & { calls: number } {
  const adapter = {
    api: "openai-chat" as const,
    calls: 0,
    async *stream(_req: NormalizedRequest, opts: { signal: AbortSignal }) {
      const step = steps[adapter.calls++];
      if (!step) throw new Error("no step left");
      for (const e of step.events ?? []) yield e;
      if (step.hang) {
        await new Promise((_, reject) =>
          opts.signal.addEventListener("abort", () =>
            reject(new ProviderError({ errorClass: "cancelled", message: "aborted", retryable: false })),
          ),
        );
      }
      if (step.error) throw step.error;
    },
  };
  return adapter;
}

function harness(extra: { deadline?: number | null; now?: () => number; signal?: AbortSignal } = {}) {
  const sleeps: number[] = [];
  const retries: RetryScheduled[] = [];
  const discards: number[] = [];
  const starts: number[] = [];
  const usages: Array<[Usage, number]> = [];
  const events: Array<[ProviderEvent, number]> = [];
  const opts = {
    retry,
    signal: extra.signal ?? new AbortController().signal,
    idleTimeoutMs: 1000,
    deadline: extra.deadline ?? null,
    now: extra.now,
    onEvent: (e: ProviderEvent, a: number) => events.push([e, a]),
    onAttemptStart: (a: number) => starts.push(a),
    onAttemptUsage: (u: Usage, a: number) => usages.push([u, a]),
    onDiscard: (a: number) => discards.push(a),
    onRetry: (r: RetryScheduled) => retries.push(r),
    sleep: async (ms: number) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
  };
  return { opts, sleeps, retries, discards, starts, usages, events };
}

describe("computeDelayMs", () => {
  it("grows exponentially, is capped, and scales by jitter", () => {
    const mid = () => 0.5;
    const e = perr({ errorClass: "server", status: 500 });
    expect([1, 2, 3, 4, 5, 6].map((k) => computeDelayMs(k, e, retry, mid))).toEqual([
      2000, 4000, 8000, 16000, 30000, 30000,
    ]);
    expect(computeDelayMs(1, e, retry, () => 0)).toBe(1500);
    expect(computeDelayMs(1, e, retry, () => 1)).toBe(2500);
    // jitter never lifts a delay over the cap
    expect(computeDelayMs(5, e, retry, () => 1)).toBe(30000);
    expect(computeDelayMs(4, e, retry, () => 0)).toBe(12000);
  });

  it("honours a server delay as given, even above the cap", () => {
    const e = perr({ errorClass: "rate_limit", status: 429, retryAfterMs: 120_000 });
    expect(computeDelayMs(1, e, retry, () => 0)).toBe(120_000);
    expect(computeDelayMs(3, perr({ errorClass: "rate_limit", retryAfterMs: 0 }), retry)).toBe(0);
  });
});

describe("streamWithRetry", () => {
  it("returns the first success without retrying and reports its usage", async () => {
    const u: Usage = { prompt: 10, completion: 2, cacheRead: 0, cacheWrite: 0 };
    const adapter = scriptedAdapter([
      {
        events: [
          { type: "text_delta", text: "hi" },
          { type: "usage", usage: u },
          { type: "done", result: result("hi", u) },
        ],
      },
    ]);
    const h = harness();
    const r = await streamWithRetry(adapter, request, h.opts);
    expect(r.text).toBe("hi");
    expect(h.starts).toEqual([1]);
    expect(h.retries).toEqual([]);
    expect(h.usages).toEqual([[u, 1]]);
    expect(h.events.map(([e]) => e.type)).toEqual(["text_delta", "usage"]);
  });

  it("retries with the configured delays, discards streamed text, and counts usage of failed attempts", async () => {
    const u1: Usage = { prompt: 7, completion: 1, cacheRead: 0, cacheWrite: 0 };
    const adapter = scriptedAdapter([
      {
        events: [{ type: "text_delta", text: "partial" }],
        error: perr({ errorClass: "server", status: 500 }),
      },
      { error: perr({ errorClass: "overloaded", status: 529 }) },
      {
        events: [{ type: "usage", usage: u1 }],
        error: perr({ errorClass: "incomplete_stream", usage: u1 }),
      },
      { events: [{ type: "done", result: result("ok") }] },
    ]);
    const h = harness();
    const r = await streamWithRetry(adapter, request, h.opts);
    expect(r.text).toBe("ok");
    expect(h.sleeps).toEqual([2000, 4000, 8000]);
    expect(h.starts).toEqual([1, 2, 3, 4]);
    expect(h.discards).toEqual([1]);
    expect(h.usages).toEqual([[u1, 3]]);
    expect(h.retries.map((x) => [x.attempt, x.delayMs, x.reason, x.status])).toEqual([
      [2, 2000, "server", 500],
      [3, 4000, "overloaded", 529],
      [4, 8000, "incomplete_stream", null],
    ]);
    expect(h.retries[0].operatorMessage).toContain("HTTP 500");
  });

  it("never exceeds maxRetries and throws the last error", async () => {
    const steps = Array.from({ length: 10 }, (_, i) => ({
      error: perr({ errorClass: "server", status: 500 + i }),
    }));
    const adapter = scriptedAdapter(steps);
    const h = harness();
    const err = await streamWithRetry(adapter, request, {
      ...h.opts,
      retry: { ...retry, maxRetries: 3 },
    }).catch((e) => e);
    expect(adapter.calls).toBe(4);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.status).toBe(503);
    expect(h.retries).toHaveLength(3);
  });

  it("throws a non-retryable error at once", async () => {
    for (const errorClass of [
      "quota",
      "auth",
      "context_overflow",
      "invalid_prompt",
      "bad_request",
    ] as const) {
      const adapter = scriptedAdapter([{ error: perr({ errorClass, retryable: false, status: 400 }) }]);
      const h = harness();
      await expect(streamWithRetry(adapter, request, h.opts)).rejects.toMatchObject({ errorClass });
      expect(adapter.calls).toBe(1);
      expect(h.sleeps).toEqual([]);
    }
  });

  it("uses the server delay and stops with DurationLimitError when it would pass the deadline", async () => {
    const adapter = scriptedAdapter([
      { error: perr({ errorClass: "rate_limit", status: 429, retryAfterMs: 45_000 }) },
      { error: perr({ errorClass: "rate_limit", status: 429, retryAfterMs: 90_000 }) },
    ]);
    const h = harness({ deadline: 1_000_000 + 60_000, now: () => 1_000_000 });
    const err = await streamWithRetry(adapter, request, h.opts).catch((e) => e);
    expect(h.sleeps).toEqual([45_000]);
    expect(err).toBeInstanceOf(DurationLimitError);
    expect(err.delayMs).toBe(90_000);
    expect(err.lastError.status).toBe(429);
    expect(adapter.calls).toBe(2);
  });

  it("retries a body-write failure once at once, outside the budget, then throws it", async () => {
    const bw = () => perr({ errorClass: "network", duringBodyWrite: true, message: "EPIPE" });
    const okAdapter = scriptedAdapter([
      { error: bw() },
      { events: [{ type: "done", result: result("ok") }] },
    ]);
    const h = harness();
    const r = await streamWithRetry(okAdapter, request, { ...h.opts, retry: { ...retry, maxRetries: 0 } });
    expect(r.text).toBe("ok");
    expect(h.sleeps).toEqual([]);
    expect(h.retries.map((x) => [x.attempt, x.delayMs])).toEqual([[2, 0]]);

    const badAdapter = scriptedAdapter([{ error: bw() }, { error: bw() }, { events: [] }]);
    const h2 = harness();
    const err = await streamWithRetry(badAdapter, request, h2.opts).catch((e) => e);
    expect(err.duringBodyWrite).toBe(true);
    expect(err.message).toBe("EPIPE");
    expect(badAdapter.calls).toBe(2);
  });

  it("treats a stream with no done event as incomplete and retries it", async () => {
    const adapter = scriptedAdapter([
      { events: [{ type: "text_delta", text: "x" }] },
      { events: [{ type: "done", result: result("ok") }] },
    ]);
    const h = harness();
    await streamWithRetry(adapter, request, h.opts);
    expect(h.retries[0].reason).toBe("incomplete_stream");
    expect(h.discards).toEqual([1]);
  });

  it("cancellation during the backoff sleep resolves at once and clears the timer", async () => {
    // A fake clock: the 60 s backoff timer is visible, and nothing moves unless the test says so.
    vi.useFakeTimers();
    try {
      const ac = new AbortController();
      const adapter = scriptedAdapter([{ error: perr({ errorClass: "server", status: 500 }) }]);
      const h = harness({ signal: ac.signal });
      let retried!: () => void;
      const scheduled = new Promise<void>((resolve) => (retried = resolve));
      const p = streamWithRetry(adapter, request, {
        ...h.opts,
        retry: { ...retry, baseDelaySeconds: 60, maxDelaySeconds: 60 },
        sleep: undefined,
        onRetry: () => retried(),
      });
      const outcome = p.then(
        () => "resolved",
        (e) => e,
      );
      await scheduled;
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(1); // the backoff timer is armed
      ac.abort();
      // Not one millisecond of the 60 s passes on the clock, yet the call is over.
      await vi.advanceTimersByTimeAsync(0);
      await expect(Promise.race([outcome, "still waiting"])).resolves.toMatchObject({
        errorClass: "cancelled",
      });
      expect(vi.getTimerCount()).toBe(0);
      expect(adapter.calls).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("cancellation during the stream throws cancelled and does not retry", async () => {
    const ac = new AbortController();
    const adapter = scriptedAdapter([{ events: [{ type: "text_delta", text: "a" }], hang: true }]);
    const h = harness({ signal: ac.signal });
    const p = streamWithRetry(adapter, request, { ...h.opts, onEvent: () => ac.abort() });
    await expect(p).rejects.toMatchObject({ errorClass: "cancelled" });
    expect(adapter.calls).toBe(1);
    expect(h.retries).toEqual([]);
  });

  it("cancellation interrupts an adapter that ignores the signal", async () => {
    const ac = new AbortController();
    const deaf: ProviderAdapter = {
      api: "openai-chat",
      async *stream() {
        yield { type: "text_delta", text: "a" };
        await new Promise(() => {}); // never settles, never listens
      },
    };
    const h = harness({ signal: ac.signal });
    const p = streamWithRetry(deaf, request, { ...h.opts, onEvent: () => setTimeout(() => ac.abort(), 5) });
    await expect(p).rejects.toMatchObject({ errorClass: "cancelled" });
  });

  it("a computed backoff past the deadline also stops with DurationLimitError", async () => {
    const adapter = scriptedAdapter([{ error: perr({ errorClass: "server", status: 500 }) }]);
    const h = harness({ deadline: 1500, now: () => 0 });
    const err = await streamWithRetry(adapter, request, h.opts).catch((e) => e);
    expect(err).toBeInstanceOf(DurationLimitError);
    expect(err.delayMs).toBe(2000);
    expect(h.sleeps).toEqual([]);
    expect(h.retries).toEqual([]);
  });

  it("rethrows a non-provider exception (a bug) without retrying", async () => {
    const adapter = scriptedAdapter([]);
    const h = harness();
    await expect(streamWithRetry(adapter, request, h.opts)).rejects.toThrow("no step left");
    expect(adapter.calls).toBe(1);
  });

  it("an already-aborted signal sends no request", async () => {
    const ac = new AbortController();
    ac.abort();
    const adapter = scriptedAdapter([]);
    const h = harness({ signal: ac.signal });
    await expect(streamWithRetry(adapter, request, h.opts)).rejects.toMatchObject({
      errorClass: "cancelled",
    });
    expect(adapter.calls).toBe(0);
  });
});

describe("abortableSleep", () => {
  // A fake clock, so "after the delay" and "at once" are exact and independent of the machine.
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function settled(p: Promise<void>): () => string {
    let state = "pending";
    p.then(
      () => (state = "resolved"),
      (e) => (state = `rejected: ${e?.errorClass}`),
    );
    return () => state;
  }

  it("resolves after the delay, not before, and leaves no listener", async () => {
    const ac = new AbortController();
    const state = settled(abortableSleep(5000, ac.signal));
    await vi.advanceTimersByTimeAsync(4999);
    expect(state()).toBe("pending");
    await vi.advanceTimersByTimeAsync(1);
    expect(state()).toBe("resolved");
    expect(getEventListeners(ac.signal, "abort")).toHaveLength(0);
  });

  it("rejects at once on abort and clears its timer", async () => {
    const ac = new AbortController();
    const state = settled(abortableSleep(60_000, ac.signal));
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    ac.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(state()).toBe("rejected: cancelled");
    expect(vi.getTimerCount()).toBe(0);
  });

  it("rejects an already-aborted signal without arming a timer", async () => {
    const ac = new AbortController();
    ac.abort();
    const state = settled(abortableSleep(60_000, ac.signal));
    await vi.advanceTimersByTimeAsync(0);
    expect(state()).toBe("rejected: cancelled");
    expect(vi.getTimerCount()).toBe(0);
  });
});
