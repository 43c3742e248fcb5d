// The Bedrock adapter (`bedrock-converse`): POST <baseUrl>/model/<modelId>/converse-stream, signed
// with SigV4 (or a Bedrock API key as a Bearer token), answered by an AWS event stream: binary
// frames, each decoded and checked (prelude and message CRCs) by the AWS SDK's codec. No retries
// here: an exception frame becomes a classified ProviderError for tern's retry policy (R-PROV-14).
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { AFTER_FINISH_GRACE_MS, endSoonAfterFinish, linkedAbort } from "./after-finish.js";
import { sigV4Headers } from "./aws-signing.js";
import { bedrockBodyChunks } from "./bedrock-body.js";
import { bedrockConverseUrl } from "./bedrock-request.js";
import { BedrockStreamState, bedrockException } from "./bedrock-stream.js";
import type { ProviderAdapter, ProviderEndpoint, ProviderEvent } from "./types.js";
import {
  carryUsage,
  contextWindowFull,
  incompleteStream,
  isTransportCut,
  streamJson,
} from "./stream-errors.js";
import { postStream } from "./transport.js";

export interface EventStreamMessage {
  headers: Record<string, string>;
  body: string;
}

/** Cuts a byte stream (latin1 chunks from the transport) into whole event-stream messages. */
export async function* eventStreamMessages(
  chunks: AsyncIterable<string>,
): AsyncGenerator<EventStreamMessage[]> {
  const codec = new EventStreamCodec(toUtf8, fromUtf8);
  let buffer = Buffer.alloc(0);
  for await (const chunk of chunks) {
    buffer = Buffer.concat([buffer, Buffer.from(chunk, "latin1")]);
    const batch: EventStreamMessage[] = [];
    // Each message starts with its total length (prelude, big-endian uint32).
    while (buffer.length >= 4 && buffer.length >= buffer.readUInt32BE(0)) {
      const length = buffer.readUInt32BE(0);
      if (length < 16) throw incompleteStream(`malformed event-stream frame (length ${length})`);
      let message: ReturnType<EventStreamCodec["decode"]>;
      try {
        message = codec.decode(buffer.subarray(0, length));
      } catch {
        throw incompleteStream("event-stream frame failed its checksum");
      }
      buffer = buffer.subarray(length);
      const headers: Record<string, string> = {};
      for (const [name, header] of Object.entries(message.headers)) headers[name] = String(header.value);
      batch.push({ headers, body: toUtf8(message.body) });
    }
    if (batch.length > 0) yield batch;
  }
  if (buffer.length > 0) throw incompleteStream("stream ended inside an event-stream frame");
}

export function createBedrockAdapter(endpoint: ProviderEndpoint): ProviderAdapter {
  return {
    api: "bedrock-converse",
    async *stream(request, options): AsyncGenerator<ProviderEvent, void, void> {
      const state = new BedrockStreamState();
      const link = linkedAbort(options.signal);
      try {
        const url = bedrockConverseUrl(endpoint.baseUrl, request.model);
        const body = bedrockBodyChunks(request);
        const headers: Record<string, string> = {
          "content-type": "application/json",
          accept: "application/vnd.amazon.eventstream",
          ...endpoint.headers,
        };
        if (endpoint.apiKey) headers.authorization = `Bearer ${endpoint.apiKey}`;
        else if (endpoint.auth?.kind === "aws-sigv4") {
          Object.assign(headers, await sigV4Headers(new URL(url), endpoint.auth.region, headers, body));
        }
        const response = await postStream(url, {
          headers,
          body,
          signal: link.signal,
          idleTimeoutMs: options.idleTimeoutMs,
          binary: true,
        });
        const grace = Math.min(AFTER_FINISH_GRACE_MS, options.idleTimeoutMs);
        const messages = endSoonAfterFinish(
          eventStreamMessages(response.chunks),
          () => state.hasFinish,
          grace,
          link.abort,
        );
        try {
          reading: for await (const batch of messages) {
            for (const message of batch) {
              const kind = message.headers[":message-type"];
              if (kind === "exception" || kind === "error") {
                const type =
                  message.headers[":exception-type"] ?? message.headers[":error-code"] ?? "exception";
                throw bedrockException(type, message.body);
              }
              const payload = streamJson(message.body || "{}", "event payload");
              yield* state.handle(message.headers[":event-type"] ?? "", payload);
              if (state.complete) break reading;
            }
          }
        } catch (error) {
          // Cut after messageStop: only the usage frame was missing; sending again would bill twice.
          if (!(state.hasFinish && isTransportCut(error))) throw error;
        }
        if (!state.hasFinish) throw incompleteStream("stream ended without messageStop");
        if (state.result().rawFinish === "model_context_window_exceeded") throw contextWindowFull();
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
