// The OpenAI Chat Completions adapter (`openai-chat`): OpenAI and every compatible server.
// One normalized request in, one normalized event stream out; every failure is a ProviderError.
import { AFTER_FINISH_GRACE_MS, endSoonAfterFinish, linkedAbort } from "./after-finish.js";
import { cancelledError } from "./errors.js";
import { chatBodyChunks } from "./openai-body.js";
import { type ChatWireOptions, chatWireOptions } from "./openai-request.js";
import { ChatStreamState } from "./openai-stream.js";
import { parseSseBatches } from "./sse.js";
import { carryUsage, isTransportCut } from "./stream-errors.js";
import { postStream, type StreamResponse } from "./transport.js";
import { eventsOfText, isEventStreamText, isJsonResponse, readWhole } from "./whole-body.js";
import type {
  NormalizedRequest,
  ProviderAdapter,
  ProviderEndpoint,
  ProviderEvent,
  StreamOptions,
} from "./types.js";

export function createOpenAIChatAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  // One object per adapter: the body serializer keys its cached history on it.
  const wire = chatWireOptions(endpoint.baseUrl, endpoint.compat);
  return {
    api: "openai-chat",
    stream: (request, options) => streamChat(endpoint, wire, request, options),
  };
}

/** The headers of a streamed request to an OpenAI API (Chat Completions or Responses). */
export function openaiStreamHeaders(endpoint: ProviderEndpoint): Record<string, string> {
  const headers: Record<string, string> = { "content-type": "application/json", accept: "text/event-stream" };
  // Azure OpenAI takes its key in `api-key` (R-PROV-15).
  if (endpoint.apiKey && endpoint.auth?.kind === "key-header")
    headers[endpoint.auth.header] = endpoint.apiKey;
  else if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
  return Object.assign(headers, endpoint.headers);
}

export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/chat/completions`;
}

async function* streamChat(
  endpoint: ProviderEndpoint,
  wire: ChatWireOptions,
  request: NormalizedRequest,
  options: StreamOptions,
): AsyncGenerator<ProviderEvent, void, void> {
  // Its own signal: a connection held open after the answer is released alone.
  const link = linkedAbort(options.signal);
  try {
    const response = await postStream(chatCompletionsUrl(endpoint.baseUrl), {
      headers: openaiStreamHeaders(endpoint),
      body: chatBodyChunks(request, wire),
      signal: link.signal,
      idleTimeoutMs: options.idleTimeoutMs,
    });
    yield* readChat(response, options, link.abort);
  } finally {
    link.dispose();
  }
}

async function* readChat(
  response: StreamResponse,
  options: StreamOptions,
  release: () => void,
): AsyncGenerator<ProviderEvent, void, void> {
  const state = new ChatStreamState(response.status);
  try {
    let batches = parseSseBatches(response.chunks);
    if (isJsonResponse(response.headers)) {
      const text = await readWhole(response.chunks);
      if (!isEventStreamText(text)) {
        // Some compatible servers ignore `stream: true` and answer with one chat.completion object.
        yield* state.handleData(completionAsChunk(text));
        yield* state.finish();
        return;
      }
      batches = eventsOfText(text);
    }
    const grace = Math.min(AFTER_FINISH_GRACE_MS, options.idleTimeoutMs);
    try {
      const read = endSoonAfterFinish(batches, () => state.hasFinish, grace, release);
      reading: for await (const frames of read) {
        for (const frame of frames) {
          if (options.signal.aborted) throw cancelledError();
          const events = state.handleData(frame.data, frame.event);
          for (const event of events) yield event;
          // Stop at [DONE]: a server that keeps the connection open must not cost an idle timeout.
          if (state.sawTerminator) break reading;
        }
      }
    } catch (error) {
      // Cut or stalled after the finish reason: the answer is whole, and sending it again would
      // bill it twice; only a usage frame that never came is missing.
      if (!(state.hasFinish && isTransportCut(error))) throw error;
    }
    yield* state.finish();
  } catch (error) {
    carryUsage(error, state.latestUsage);
    throw error;
  }
}

/** A non-streamed chat.completion, rewritten as the one chunk that carries all of it. */
function completionAsChunk(text: string): string {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return text; // the stream state reports it as a malformed frame
  }
  const choice = body?.choices?.[0];
  if (!choice?.message) return text;
  const { content, reasoning_content, reasoning, refusal, tool_calls } = choice.message;
  const delta: Record<string, unknown> = { content, reasoning_content, reasoning, refusal };
  if (Array.isArray(tool_calls))
    delta.tool_calls = tool_calls.map((call: object, index: number) => ({ index, ...call }));
  return JSON.stringify({ ...body, choices: [{ index: 0, delta, finish_reason: choice.finish_reason }] });
}
