// Chooses the wire adapter for an endpoint, so the engine never names a protocol's module.
import { createAnthropicAdapter } from "./anthropic-messages.js";
import { createOpenAIChatAdapter } from "./openai-chat.js";
import { createOpenAIResponsesAdapter } from "./openai-responses.js";
import type { ProviderAdapter, ProviderEndpoint } from "./types.js";

export function createAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  switch (endpoint.api) {
    case "openai-chat":
      return createOpenAIChatAdapter(endpoint);
    case "anthropic-messages":
      return createAnthropicAdapter(endpoint);
    case "openai-responses":
      return createOpenAIResponsesAdapter(endpoint);
    default:
      throw new Error(`unknown provider api: ${String((endpoint as { api: unknown }).api)}`);
  }
}

export { classifyHttpError, classifyStreamError, parseRetryAfter, redactSecrets } from "./classify.js";
export { isProviderError, ProviderError } from "./errors.js";
export type * from "./types.js";
