// Shared helpers for the openai-chat adapter tests: a real fake provider, a default request,
// and a collector that returns every event or the thrown ProviderError.
import { ProviderError } from "../../src/provider/errors.js";
import { createOpenAIChatAdapter } from "../../src/provider/openai-chat.js";
import type { StreamWithRetryOptions } from "../../src/provider/retry.js";
import type { NormalizedRequest, ProviderEvent, StreamResult } from "../../src/provider/types.js";
import type { FakeProvider } from "../support/fake-provider.js";

export function baseRequest(overrides: Partial<NormalizedRequest> = {}): NormalizedRequest {
  return {
    model: "test-model",
    system: "You are a test.",
    tools: [],
    messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
    images: false,
    ...overrides,
  };
}

export interface Collected {
  events: ProviderEvent[];
  error?: ProviderError;
  result?: StreamResult;
}

export async function collect(
  provider: FakeProvider,
  request: NormalizedRequest = baseRequest(),
  options: {
    signal?: AbortSignal;
    idleTimeoutMs?: number;
    apiKey?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Collected> {
  const adapter = createOpenAIChatAdapter({
    api: "openai-chat",
    baseUrl: provider.baseUrl,
    apiKey: options.apiKey,
    headers: options.headers ?? {},
  });
  const events: ProviderEvent[] = [];
  try {
    for await (const event of adapter.stream(request, {
      signal: options.signal ?? new AbortController().signal,
      idleTimeoutMs: options.idleTimeoutMs ?? 5000,
    })) {
      events.push(event);
    }
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    return { events, error };
  }
  const done = events.find((e) => e.type === "done");
  return { events, result: done?.type === "done" ? done.result : undefined };
}

export function texts(events: ProviderEvent[], type: "text_delta" | "reasoning_delta"): string {
  return events
    .filter((e): e is { type: typeof type; text: string } => e.type === type)
    .map((e) => e.text)
    .join("");
}

/** streamWithRetry's options for a test: one attempt unless `retry` says more, hooks that only listen. */
export function retryOptions(overrides: Partial<StreamWithRetryOptions> = {}): StreamWithRetryOptions {
  return {
    retry: { maxRetries: 0, baseDelaySeconds: 1, factor: 2, jitter: 0, maxDelaySeconds: 1 },
    signal: new AbortController().signal,
    idleTimeoutMs: 20_000,
    deadline: null,
    onEvent: () => {},
    onDiscard: () => {},
    onRetry: () => {},
    ...overrides,
  };
}
