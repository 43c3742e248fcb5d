// The OpenAI Chat Completions adapter (`openai-chat`): OpenAI and every compatible server.
// One normalized request in, one normalized event stream out; every failure is a ProviderError.
import { ProviderError } from "./errors.js";
import { chatBodyChunks } from "./openai-body.js";
import { ChatStreamState } from "./openai-stream.js";
import { parseSse } from "./sse.js";
import { postStream } from "./transport.js";
import type {
  NormalizedRequest,
  ProviderAdapter,
  ProviderEndpoint,
  ProviderEvent,
  StreamOptions,
} from "./types.js";

export function createOpenAIChatAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    api: "openai-chat",
    stream: (request, options) => streamChat(endpoint, request, options),
  };
}

export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
}

async function* streamChat(
  endpoint: ProviderEndpoint,
  request: NormalizedRequest,
  options: StreamOptions,
): AsyncGenerator<ProviderEvent, void, void> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  Object.assign(headers, endpoint.headers);
  const response = await postStream(chatCompletionsUrl(endpoint.baseUrl), {
    headers,
    body: chatBodyChunks(request),
    signal: options.signal,
    idleTimeoutMs: options.idleTimeoutMs,
  });
  const state = new ChatStreamState(response.status);
  try {
    for await (const frame of parseSse(response.chunks)) {
      if (options.signal.aborted) throw cancelled();
      const events = state.handleData(frame.data, frame.event);
      for (const event of events) yield event;
    }
    yield* state.finish();
  } catch (error) {
    // The ledger must match the bill: usage seen before a failure travels with the error.
    if (error instanceof ProviderError && !error.usage && state.latestUsage) error.usage = state.latestUsage;
    throw error;
  }
}

function cancelled(): ProviderError {
  return new ProviderError({ errorClass: "cancelled", retryable: false, message: "request cancelled" });
}
