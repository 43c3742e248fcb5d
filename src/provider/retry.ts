// The retry policy around one model round (R-RETRY-1…6). It decides only from the fields of a
// classified ProviderError; classification itself lives with the transport.
import { cancelledError, isProviderError, ProviderError } from "./errors.js";
import type { NormalizedRequest, ProviderAdapter, ProviderEvent, StreamResult } from "./types.js";
import type { Usage } from "../vocab/usage.js";
import { monotonicMs } from "../vocab/clock.js";

/**
 * How often and how patiently to retry. The provider declares what it needs; config's `retry`
 * section has this shape, so the provider folder needs nothing from config.
 */
export interface RetryPolicy {
  maxRetries: number;
  baseDelaySeconds: number;
  factor: number;
  /** Fraction of each delay drawn at random (0.2 = ±20 %), so clients never retry in step. */
  jitter: number;
  maxDelaySeconds: number;
}

export interface RetryScheduled {
  /** The attempt about to be made (2 for the first retry). */
  attempt: number;
  delayMs: number;
  /** The error class that caused the retry. */
  reason: string;
  status: number | null;
  operatorMessage: string;
}

/** A retry delay would run past the turn's duration budget (R-RETRY-2 → duration_limit_reached). */
export class DurationLimitError extends Error {
  readonly delayMs: number;
  readonly lastError: ProviderError;
  constructor(delayMs: number, lastError: ProviderError) {
    super(`retry delay of ${delayMs} ms would pass the turn's duration limit (${lastError.message})`);
    this.name = "DurationLimitError";
    this.delayMs = delayMs;
    this.lastError = lastError;
  }
}

export interface StreamWithRetryOptions {
  retry: RetryPolicy;
  signal: AbortSignal;
  idleTimeoutMs: number;
  /** When the turn's duration budget runs out, on `now`'s clock (default monotonicMs), or null. */
  deadline: number | null;
  /** Live events of the current attempt (never `done`). */
  onEvent(event: ProviderEvent, attempt: number): void;
  /** Each request sent (model_calls counts these). */
  onAttemptStart?(attempt: number): void;
  /** Final usage snapshot of every attempt that reported one, failed attempts included. */
  onAttemptUsage?(usage: Usage, attempt: number): void;
  /** A failed attempt had streamed text, reasoning or tool calls: front ends drop them. */
  onDiscard(attempt: number): void;
  onRetry(info: RetryScheduled): void;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  /** The clock `deadline` is on (default the monotonic one: a wall-clock step moves no deadline). */
  now?: () => number;
}

/** Delay before the next attempt after `failedAttempts` counted failures (≥ 1). */
export function computeDelayMs(
  failedAttempts: number,
  error: ProviderError,
  retry: RetryPolicy,
  random: () => number = Math.random,
): number {
  // A server-given delay is honoured as given, never capped (R-RETRY-2).
  if (error.retryAfterMs !== undefined) return Math.max(0, Math.round(error.retryAfterMs));
  const maxMs = retry.maxDelaySeconds * 1000;
  const raw = Math.min(
    maxMs,
    retry.baseDelaySeconds * 1000 * retry.factor ** Math.max(0, failedAttempts - 1),
  );
  const scale = 1 - retry.jitter + 2 * retry.jitter * random();
  return Math.max(0, Math.round(Math.min(maxMs, raw * scale)));
}

/** setTimeout that rejects with a `cancelled` error at once on abort and clears its timer. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(cancelledError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/**
 * Yields the adapter's events but gives up the moment `signal` aborts, even when the adapter is
 * stuck on something that ignores the signal (R-RETRY-6: cancellation interrupts at once).
 */
async function* untilAborted<T>(
  source: AsyncGenerator<T, void, void>,
  signal: AbortSignal,
): AsyncGenerator<T> {
  // One waiter per step, dropped when the step ends: racing every step against one long-lived
  // abort promise would hang a reaction on it per event until the attempt ends.
  let interrupt: ((error: ProviderError) => void) | undefined;
  const onAbort = () => interrupt?.(cancelledError());
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      if (signal.aborted) throw cancelledError();
      const next = await new Promise<IteratorResult<T, void>>((resolve, reject) => {
        interrupt = reject;
        source.next().then(resolve, reject);
      });
      interrupt = undefined;
      if (next.done) return;
      yield next.value;
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    // Let the adapter release its connection; its own late errors are of no interest now.
    source.return(undefined).catch(() => {});
  }
}

function operatorMessage(error: ProviderError): string {
  const where = error.status !== undefined ? ` (HTTP ${error.status})` : "";
  const text = error.message.length > 300 ? `${error.message.slice(0, 300)}…` : error.message;
  return `${error.errorClass}${where}: ${text}`;
}

/** Streams one round, retrying retryable failures; returns the successful attempt's result. */
export async function streamWithRetry(
  adapter: ProviderAdapter,
  request: NormalizedRequest,
  opts: StreamWithRetryOptions,
): Promise<StreamResult> {
  const { signal } = opts;
  const sleep = opts.sleep ?? abortableSleep;
  const now = opts.now ?? monotonicMs;
  let attempt = 0;
  let counted = 0; // failures that spend the maxRetries budget
  let bodyWriteRetried = false;
  let maxTokensLowered = false;
  let current = request;

  for (;;) {
    if (signal.aborted) throw cancelledError();
    attempt++;
    opts.onAttemptStart?.(attempt);
    let streamed = false;
    let lastUsage: Usage | null = null;
    let error: ProviderError;
    try {
      let result: StreamResult | undefined;
      for await (const event of untilAborted(
        adapter.stream(current, { signal, idleTimeoutMs: opts.idleTimeoutMs }),
        signal,
      )) {
        if (event.type === "done") {
          result = event.result;
          continue;
        }
        if (event.type === "usage") lastUsage = event.usage;
        else streamed = true;
        opts.onEvent(event, attempt);
      }
      if (signal.aborted) throw cancelledError();
      if (!result) {
        throw new ProviderError({
          errorClass: "incomplete_stream",
          message: "stream ended without a result",
          retryable: true,
        });
      }
      const usage = result.usage ?? lastUsage;
      if (usage) opts.onAttemptUsage?.(usage, attempt);
      return result;
    } catch (err) {
      if (!isProviderError(err)) {
        if (signal.aborted) throw cancelledError();
        throw err; // a bug, not a provider failure
      }
      error = err;
    }

    const usage = error.usage ?? lastUsage;
    if (usage) opts.onAttemptUsage?.(usage, attempt);
    if (signal.aborted) throw error.errorClass === "cancelled" ? error : cancelledError();
    if (error.errorClass === "cancelled") throw error;

    let delayMs: number;
    if (error.maxOutputTokensFit !== undefined && !maxTokensLowered) {
      // R-RETRY-1: the input fits, only the asked output does not: ask for less, once, at once.
      maxTokensLowered = true;
      current = { ...current, maxOutputTokens: error.maxOutputTokensFit };
      delayMs = 0;
    } else if (error.duringBodyWrite) {
      // R-RETRY-5: replace a stale connection once, at once, outside the budget.
      if (bodyWriteRetried) throw error;
      bodyWriteRetried = true;
      delayMs = 0;
    } else {
      if (!error.retryable || counted >= opts.retry.maxRetries) throw error;
      counted++;
      delayMs = computeDelayMs(counted, error, opts.retry, opts.random);
      if (opts.deadline !== null && now() + delayMs > opts.deadline)
        throw new DurationLimitError(delayMs, error);
    }

    if (streamed) opts.onDiscard(attempt);
    opts.onRetry({
      attempt: attempt + 1,
      delayMs,
      reason: error.errorClass,
      status: error.status ?? null,
      operatorMessage: operatorMessage(error),
    });
    if (delayMs > 0) {
      await sleep(delayMs, signal);
      if (signal.aborted) throw cancelledError();
    }
  }
}
