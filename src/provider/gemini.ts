// The Gemini adapter (`google-gemini`): POST <baseUrl>/models/<model>:streamGenerateContent?alt=sse
// for the Gemini API (key in `x-goog-api-key`, never in `?key=`, which would leak into logs) and
// for Vertex AI (baseUrl = …/publishers/google, a Google access token). No retries here.
import { AFTER_FINISH_GRACE_MS, endSoonAfterFinish, linkedAbort } from "./after-finish.js";
import { geminiBodyChunks } from "./gemini-body.js";
import { googleAccessToken } from "./google-credentials.js";
import { GeminiStreamState } from "./gemini-stream.js";
import { parseSseBatches } from "./sse.js";
import { carryUsage, incompleteStream, isTransportCut, streamJson } from "./stream-errors.js";
import { postStream } from "./transport.js";
import { eventsOfText, isEventStreamText, isJsonResponse, readWhole } from "./whole-body.js";
import type { ProviderAdapter, ProviderEndpoint, ProviderEvent } from "./types.js";

/** The request's credentials: the key in its header, or a Google access token (Vertex AI). */
export async function googleAuthHeaders(endpoint: ProviderEndpoint): Promise<Record<string, string>> {
  const auth = endpoint.auth;
  if (auth?.kind === "google-adc") {
    return { authorization: `Bearer ${await googleAccessToken()}` };
  }
  if (!endpoint.apiKey) return {};
  return { [auth?.kind === "key-header" ? auth.header : "x-goog-api-key"]: endpoint.apiKey };
}

export function geminiStreamUrl(baseUrl: string, model: string): string {
  return `${baseUrl.replace(/\/+$/, "")}/models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`;
}

export function createGeminiAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    api: "google-gemini",
    async *stream(request, options): AsyncGenerator<ProviderEvent, void, void> {
      const state = new GeminiStreamState();
      const link = linkedAbort(options.signal);
      try {
        const headers = {
          "content-type": "application/json",
          accept: "text/event-stream",
          ...(await googleAuthHeaders(endpoint)),
          ...endpoint.headers,
        };
        const response = await postStream(geminiStreamUrl(endpoint.baseUrl, request.model), {
          headers,
          body: geminiBodyChunks(request),
          signal: link.signal,
          idleTimeoutMs: options.idleTimeoutMs,
        });
        let batches = parseSseBatches(response.chunks);
        if (isJsonResponse(response.headers)) {
          // Without `alt=sse` (a proxy that dropped it) Gemini answers one JSON array of chunks.
          const text = await readWhole(response.chunks);
          batches = isEventStreamText(text) ? eventsOfText(text) : oneFrame(text);
        }
        const grace = Math.min(AFTER_FINISH_GRACE_MS, options.idleTimeoutMs);
        try {
          for await (const frames of endSoonAfterFinish(batches, () => state.hasFinish, grace, link.abort)) {
            for (const frame of frames) {
              if (frame.data.trim() === "") continue;
              yield* state.handle(streamJson(frame.data, "stream frame"));
            }
          }
        } catch (error) {
          // Cut after the finish reason: only a trailing usage frame was missing; the answer is whole.
          if (!(state.hasFinish && isTransportCut(error))) throw error;
        }
        if (!state.hasFinish) throw incompleteStream("stream ended without a finish reason");
      } catch (error) {
        carryUsage(error, state.latestUsage);
        throw error;
      } finally {
        link.dispose();
      }
      yield { type: "done", result: state.result() };
    },
  };
}

async function* oneFrame(text: string): AsyncGenerator<{ data: string }[], void, void> {
  yield [{ data: text }];
}
