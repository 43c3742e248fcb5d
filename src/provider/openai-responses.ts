// The OpenAI Responses adapter (`openai-responses`, R-PROV-9): one NormalizedRequest →
// POST <baseUrl>/responses → one stream of ProviderEvents ending in `done`. No retries here.
import { cancelledError } from "./errors.js";
import { openaiStreamHeaders } from "./openai-chat.js";
import { responsesBodyChunks } from "./responses-body.js";
import { ResponsesStreamState } from "./responses-stream.js";
import { parseSseBatches, type SseEvent } from "./sse.js";
import { carryUsage, incompleteStream } from "./stream-errors.js";
import { postStream } from "./transport.js";
import { eventsOfText, isEventStreamText, isJsonResponse, readWhole } from "./whole-body.js";
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
      body: responsesBodyChunks(request, endpoint.compat),
      signal: options.signal,
      idleTimeoutMs: options.idleTimeoutMs,
    });
    const batches = isJsonResponse(response.headers)
      ? wholeResponseAsFrames(response.chunks)
      : parseSseBatches(response.chunks);
    frames: for await (const frames of batches) {
      for (const frame of frames) {
        if (options.signal.aborted) throw cancelledError();
        const data = frame.data.trim();
        if (data === "" || data === "[DONE]") continue;
        let payload: unknown;
        try {
          payload = JSON.parse(data);
        } catch {
          throw incompleteStream(
            `the provider sent a stream frame that is not valid JSON: ${data.slice(0, 80)}`,
          );
        }
        yield* state.handle(payload, frame.event);
        // Stop at the terminal event: a server that keeps the connection open must not cost a timeout.
        if (state.complete) break frames;
      }
    }
    if (!state.complete) throw incompleteStream("the stream ended without response.completed");
  } catch (error) {
    // The bill counts tokens of failed requests too (R-PROV-6).
    carryUsage(error, state.usage);
    throw error;
  }
  yield { type: "done", result: state.result() };
}

/**
 * Some compatible servers ignore `stream: true` and answer with one Response object: replay it as
 * the events a stream ends with (each output item's `done`, then the terminal event), so one code
 * path reads both.
 */
async function* wholeResponseAsFrames(chunks: AsyncIterable<string>): AsyncGenerator<SseEvent[]> {
  const text = await readWhole(chunks);
  // An event stream labelled as JSON is read as the stream it is.
  if (isEventStreamText(text)) yield* eventsOfText(text);
  else yield responseFrames(text);
}

function responseFrames(text: string): SseEvent[] {
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return [{ data: text }]; // reported as an unparsable frame
  }
  if (body?.object !== "response" || !Array.isArray(body.output))
    return [{ data: JSON.stringify({ type: "error", error: body?.error ?? body }) }];
  const frames: SseEvent[] = (body.output as unknown[]).map((item, index) => ({
    data: JSON.stringify({ type: "response.output_item.done", output_index: index, item }),
  }));
  const terminal =
    body.status === "incomplete"
      ? "response.incomplete"
      : body.status === "failed"
        ? "response.failed"
        : "response.completed";
  frames.push({ data: JSON.stringify({ type: terminal, response: body }) });
  return frames;
}
