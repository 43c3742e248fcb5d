// Chooses the wire adapter for an endpoint, so the engine never names a protocol's module.
import { createOpenAIChatAdapter } from "./openai-chat.js";
import type { ProviderAdapter, ProviderEndpoint } from "./types.js";

export function createAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  switch (endpoint.api) {
    case "openai-chat":
      return createOpenAIChatAdapter(endpoint);
    case "anthropic-messages":
      return loadedOnFirstStream(
        endpoint,
        async () => (await import("./anthropic-messages.js")).createAnthropicAdapter,
      );
    case "openai-responses":
      return loadedOnFirstStream(
        endpoint,
        async () => (await import("./openai-responses.js")).createOpenAIResponsesAdapter,
      );
    case "google-gemini":
      return loadedOnFirstStream(endpoint, async () => (await import("./gemini.js")).createGeminiAdapter);
    case "bedrock-converse":
      return loadedOnFirstStream(endpoint, async () => (await import("./bedrock.js")).createBedrockAdapter);
    default:
      throw new Error(`unknown provider api: ${String((endpoint as { api: unknown }).api)}`);
  }
}

/**
 * An adapter whose protocol module loads with its first request: a process compiles one protocol,
 * not three (Chat Completions, the most common, is loaded with this module). One adapter object
 * is made, once, as each keys its own caches on itself.
 */
function loadedOnFirstStream(
  endpoint: ProviderEndpoint,
  load: () => Promise<(endpoint: ProviderEndpoint) => ProviderAdapter>,
): ProviderAdapter {
  let adapter: Promise<ProviderAdapter> | undefined;
  return {
    api: endpoint.api,
    async *stream(request, options) {
      adapter ??= load().then((create) => create(endpoint));
      yield* (await adapter).stream(request, options);
    },
  };
}

export { classifyHttpError, classifyStreamError, parseRetryAfter, redactSecrets } from "./classify.js";
export { isProviderError, ProviderError } from "./errors.js";
export type * from "./types.js";
