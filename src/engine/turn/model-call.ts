// The one way the engine calls a model: the session's retry policy and idle timeout, with the
// hooks a caller cares about (the rest are no-ops). Turns, compaction summaries and side
// questions all go through it. Streamed text passes a redactor on the way out, so a key the
// model spells across two deltas is caught like one in a single delta (R-CFG-3).
import { StreamRedactor } from "../../config/secrets.js";
import type { Config } from "../../config/types.js";
import { type StreamWithRetryOptions, streamWithRetry } from "../../provider/retry.js";
import type { NormalizedRequest, ProviderAdapter, StreamResult } from "../../provider/types.js";

export type ModelCallHooks = Partial<
  Pick<StreamWithRetryOptions, "onEvent" | "onAttemptStart" | "onAttemptUsage" | "onDiscard" | "onRetry">
> & {
  signal: AbortSignal;
  /** When the turn's duration budget runs out (monotonicMs, vocab/clock.ts); null (the default) = none. */
  deadline?: number | null;
};

const ignore = () => {};

export async function callModel(
  settings: Pick<Config, "retry" | "streamIdleTimeoutSeconds">,
  adapter: ProviderAdapter,
  request: NormalizedRequest,
  hooks: ModelCallHooks,
): Promise<StreamResult> {
  const onEvent = hooks.onEvent ?? ignore;
  const redactors = { text_delta: new StreamRedactor(), reasoning_delta: new StreamRedactor() };
  let attempt = 1;
  const release = (type: keyof typeof redactors, text: string) => {
    if (text) onEvent({ type, text }, attempt);
  };
  try {
    return await streamWithRetry(adapter, request, {
      retry: settings.retry,
      signal: hooks.signal,
      idleTimeoutMs: settings.streamIdleTimeoutSeconds * 1000,
      deadline: hooks.deadline ?? null,
      onEvent: (event, n) => {
        attempt = n;
        if (event.type === "text_delta" || event.type === "reasoning_delta")
          release(event.type, redactors[event.type].push(event.text));
        else onEvent(event, n);
      },
      onAttemptStart: (n) => {
        attempt = n;
        redactors.text_delta.reset();
        redactors.reasoning_delta.reset();
        hooks.onAttemptStart?.(n);
      },
      onAttemptUsage: hooks.onAttemptUsage,
      onDiscard: hooks.onDiscard ?? ignore,
      onRetry: hooks.onRetry ?? ignore,
    });
  } finally {
    release("reasoning_delta", redactors.reasoning_delta.flush());
    release("text_delta", redactors.text_delta.flush());
  }
}
