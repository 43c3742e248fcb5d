// The Anthropic Messages adapter: one NormalizedRequest → POST <baseUrl>/messages → one stream of
// ProviderEvents ending in `done`. No retries here; the retry policy wraps this.
import { anthropicBodyChunks } from "./anthropic-body.js";
import { AnthropicStreamState } from "./anthropic-stream.js";
import { AFTER_FINISH_GRACE_MS, endSoonAfterFinish, linkedAbort } from "./after-finish.js";
import { googleAccessToken } from "./google-credentials.js";
import { parseSseBatches, type SseEvent } from "./sse.js";
import {
  carryUsage,
  contextWindowFull,
  incompleteStream,
  isTransportCut,
  streamJson,
} from "./stream-errors.js";
import { postStream } from "./transport.js";
import { eventsOfText, isEventStreamText, isJsonResponse, readWhole } from "./whole-body.js";
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

/** Vertex AI's Claude (R-PROV-13): its model in the path, its version in the body, a Google token. */
export const VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16";

async function vertexRequest(endpoint: ProviderEndpoint, request: NormalizedRequest) {
  const headers = anthropicHeaders(endpoint);
  delete headers["anthropic-version"];
  headers.authorization = `Bearer ${await googleAccessToken()}`;
  return {
    url: `${endpoint.baseUrl.replace(/\/+$/, "")}/models/${encodeURIComponent(request.model).replace("%40", "@")}:streamRawPredict`,
    headers,
    body: anthropicBodyChunks(request, ({ model: _model, ...body }) => ({
      anthropic_version: VERTEX_ANTHROPIC_VERSION,
      ...body,
    })),
  };
}

export function createAnthropicAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  const messagesUrl = `${endpoint.baseUrl.replace(/\/+$/, "")}/messages`;
  return {
    api: "anthropic-messages",
    async *stream(
      request: NormalizedRequest,
      options: StreamOptions,
    ): AsyncGenerator<ProviderEvent, void, void> {
      const state = new AnthropicStreamState();
      // Its own signal: a connection held open after the answer is released alone.
      const link = linkedAbort(options.signal);
      try {
        const { url, headers, body } = endpoint.vertexAnthropic
          ? await vertexRequest(endpoint, request)
          : {
              url: messagesUrl,
              headers: anthropicHeaders(endpoint),
              body: anthropicBodyChunks(request),
            };
        const response = await postStream(url, {
          headers,
          body,
          signal: link.signal,
          idleTimeoutMs: options.idleTimeoutMs,
        });
        const frames = isJsonResponse(response.headers)
          ? wholeMessageAsFrames(response.chunks)
          : parseSseBatches(response.chunks);
        const grace = Math.min(AFTER_FINISH_GRACE_MS, options.idleTimeoutMs);
        const read = endSoonAfterFinish(frames, () => state.hasStopReason, grace, link.abort);
        try {
          batches: for await (const batch of read) {
            for (const frame of batch) {
              // An empty `data:` line is a heartbeat some proxies send, not a frame to parse.
              if (frame.data.trim() === "") continue;
              yield* state.handle(streamJson(frame.data, "stream frame"), frame.event);
              // Stop reading here: a server that keeps the connection open must not cost an idle timeout.
              if (state.stopped) break batches;
            }
          }
        } catch (error) {
          // Cut or stalled after the stop reason: only `message_stop` was missing, the answer is whole.
          if (!(state.hasStopReason && isTransportCut(error))) throw error;
        }
        if (!state.stopped && !state.hasStopReason)
          throw incompleteStream("stream ended without message_stop");
        if (state.stopReason === "model_context_window_exceeded") throw contextWindowFull();
      } catch (error) {
        carryUsage(error, state.usage);
        throw error;
      } finally {
        link.dispose();
      }
      yield { type: "done", result: state.result() };
    },
  };
}

/**
 * Some compatible servers ignore `stream: true` and answer with one Message object: replay it as
 * the event sequence a stream would have sent, so one code path reads both.
 */
async function* wholeMessageAsFrames(chunks: AsyncIterable<string>): AsyncGenerator<SseEvent[]> {
  const text = await readWhole(chunks);
  // An event stream labelled as JSON is read as the stream it is.
  if (isEventStreamText(text)) yield* eventsOfText(text);
  else yield messageFrames(text);
}

function messageFrames(text: string): SseEvent[] {
  let message: any;
  try {
    message = JSON.parse(text);
  } catch {
    return [{ data: text }];
  }
  // An error object: classified by the stream state.
  if (message?.type !== "message" || !Array.isArray(message.content)) return [{ data: text }];
  const frames: SseEvent[] = [];
  const frame = (event: string, data: object) =>
    frames.push({ event, data: JSON.stringify({ type: event, ...data }) });
  const { content, stop_reason, usage, ...rest } = message;
  frame("message_start", { message: { ...rest, content: [], usage } });
  for (const [index, block] of (content as any[]).entries()) {
    if (block.type === "tool_use") {
      frame("content_block_start", { index, content_block: { ...block, input: {} } });
      const partial_json = JSON.stringify(block.input ?? {});
      frame("content_block_delta", { index, delta: { type: "input_json_delta", partial_json } });
    } else if (block.type === "text") {
      frame("content_block_start", { index, content_block: { type: "text", text: "" } });
      frame("content_block_delta", { index, delta: { type: "text_delta", text: block.text } });
    } else if (block.type === "thinking") {
      frame("content_block_start", {
        index,
        content_block: { type: "thinking", thinking: "", signature: "" },
      });
      frame("content_block_delta", {
        index,
        delta: { type: "thinking_delta", thinking: block.thinking },
      });
      frame("content_block_delta", {
        index,
        delta: { type: "signature_delta", signature: block.signature ?? "" },
      });
    } else {
      frame("content_block_start", { index, content_block: block });
    }
    frame("content_block_stop", { index });
  }
  frame("message_delta", { delta: { stop_reason, stop_sequence: null }, usage });
  frame("message_stop", {});
  return frames;
}
