// The one way the engine calls a model: the session's retry policy and idle timeout, with the
// hooks a caller cares about (the rest are no-ops). Turns, compaction summaries and side
// questions all go through it.
import type { Config } from "../config/types.js";
import { type StreamWithRetryOptions, streamWithRetry } from "../provider/retry.js";
import type { NormalizedRequest, ProviderAdapter, StreamResult } from "../provider/types.js";

export type ModelCallHooks = Partial<
  Pick<StreamWithRetryOptions, "onEvent" | "onAttemptStart" | "onAttemptUsage" | "onDiscard" | "onRetry">
> & {
  signal: AbortSignal;
  /** Epoch ms when the turn's duration budget runs out; null (the default) = none. */
  deadline?: number | null;
};

const ignore = () => {};

export function callModel(
  settings: Pick<Config, "retry" | "streamIdleTimeoutSeconds">,
  adapter: ProviderAdapter,
  request: NormalizedRequest,
  hooks: ModelCallHooks,
): Promise<StreamResult> {
  return streamWithRetry(adapter, request, {
    retry: settings.retry,
    signal: hooks.signal,
    idleTimeoutMs: settings.streamIdleTimeoutSeconds * 1000,
    deadline: hooks.deadline ?? null,
    onEvent: hooks.onEvent ?? ignore,
    onAttemptStart: hooks.onAttemptStart,
    onAttemptUsage: hooks.onAttemptUsage,
    onDiscard: hooks.onDiscard ?? ignore,
    onRetry: hooks.onRetry ?? ignore,
  });
}
