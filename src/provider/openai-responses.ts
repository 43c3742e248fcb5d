// The OpenAI Responses adapter (`openai-responses`, R-PROV-9): one NormalizedRequest →
// POST <baseUrl>/responses → one stream of ProviderEvents ending in `done`. No retries here.
import { cancelledError, isProviderError, ProviderError } from "./errors.js";
import { openaiStreamHeaders } from "./openai-chat.js";
import { buildResponsesBody } from "./responses-request.js";
import { ResponsesStreamState } from "./responses-stream.js";
import { parseSseBatches } from "./sse.js";
import { postStream } from "./transport.js";
import type {
  NormalizedRequest,
  ProviderAdapter,
  ProviderEndpoint,
  ProviderEvent,
  StreamOptions,
} from "./types.js";

export function responsesUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/responses`;
}

export function createOpenAIResponsesAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    api: "openai-responses",
    stream: (request, options) => streamResponses(endpoint, request, options),
  };
}

async function* streamResponses(
  endpoint: ProviderEndpoint,
  request: NormalizedRequest,
  options: StreamOptions,
): AsyncGenerator<ProviderEvent, void, void> {
  const headers = openaiStreamHeaders(endpoint);
  const state = new ResponsesStreamState();
  try {
    const response = await postStream(responsesUrl(endpoint.baseUrl), {
      headers,
      body: JSON.stringify(buildResponsesBody(request, endpoint.compat)),
      signal: options.signal,
      idleTimeoutMs: options.idleTimeoutMs,
    });
    frames: for await (const frames of parseSseBatches(response.chunks)) {
      for (const frame of frames) {
        if (options.signal.aborted) throw cancelledError();
        const data = frame.data.trim();
        if (data === "" || data === "[DONE]") continue;
        let payload: unknown;
        try {
          payload = JSON.parse(data);
        } catch {
          throw incomplete(`the provider sent a stream frame that is not valid JSON: ${data.slice(0, 80)}`);
        }
        yield* state.handle(payload, frame.event);
        // Stop at the terminal event: a server that keeps the connection open must not cost a timeout.
        if (state.complete) break frames;
      }
    }
    if (!state.complete) throw incomplete("the stream ended without response.completed");
  } catch (error) {
    // The bill counts tokens of failed requests too (R-PROV-6).
    if (isProviderError(error) && !error.usage && state.usage) error.usage = state.usage;
    throw error;
  }
  yield { type: "done", result: state.result() };
}

function incomplete(message: string): ProviderError {
  return new ProviderError({ errorClass: "incomplete_stream", message, retryable: true });
}
