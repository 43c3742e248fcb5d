// The Anthropic Messages adapter: one NormalizedRequest → POST <baseUrl>/messages → one stream of
// ProviderEvents ending in `done`. No retries here; the retry policy wraps this.
import { buildAnthropicBody } from "./anthropic-request.js";
import { AnthropicStreamState } from "./anthropic-stream.js";
import { isProviderError, ProviderError } from "./errors.js";
import { parseSse } from "./sse.js";
import { postStream } from "./transport.js";
import type {
  NormalizedRequest,
  ProviderAdapter,
  ProviderEndpoint,
  ProviderEvent,
  StreamOptions,
} from "./types.js";

export const ANTHROPIC_VERSION = "2023-06-01";

export function anthropicHeaders(endpoint: ProviderEndpoint): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: "text/event-stream",
    "anthropic-version": ANTHROPIC_VERSION,
  };
  if (endpoint.apiKey) headers["x-api-key"] = endpoint.apiKey;
  for (const [name, value] of Object.entries(endpoint.headers)) headers[name.toLowerCase()] = value;
  return headers;
}

export function createAnthropicAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  const url = `${endpoint.baseUrl.replace(/\/+$/, "")}/messages`;
  return {
    api: "anthropic-messages",
    async *stream(
      request: NormalizedRequest,
      options: StreamOptions,
    ): AsyncGenerator<ProviderEvent, void, void> {
      const state = new AnthropicStreamState();
      try {
        const response = await postStream(url, {
          headers: anthropicHeaders(endpoint),
          body: JSON.stringify(buildAnthropicBody(request)),
          signal: options.signal,
          idleTimeoutMs: options.idleTimeoutMs,
        });
        for await (const frame of parseSse(response.chunks)) {
          let payload: unknown;
          try {
            payload = JSON.parse(frame.data);
          } catch {
            throw incomplete(`unparsable stream frame: ${frame.data.slice(0, 120)}`);
          }
          yield* state.handle(payload, frame.event);
          // Stop reading here: a server that keeps the connection open must not cost an idle timeout.
          if (state.stopped) break;
        }
        if (!state.stopped) throw incomplete("stream ended without message_stop");
      } catch (error) {
        // The bill counts tokens of failed requests too (R-PROV-6).
        if (isProviderError(error) && !error.usage && state.usage) error.usage = state.usage;
        throw error;
      }
      yield { type: "done", result: state.result() };
    },
  };
}

function incomplete(message: string): ProviderError {
  return new ProviderError({ errorClass: "incomplete_stream", message, retryable: true });
}
