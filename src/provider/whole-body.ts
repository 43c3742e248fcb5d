// A response body labelled `application/json`, read whole. Servers that ignore `stream: true`
// answer with one JSON object (each adapter replays it as the events a stream would have sent),
// but some label a real event stream as JSON: the text itself says which it is.
import { parseSseBatches, type SseEvent } from "./sse.js";

/** A response labelled JSON and not an event stream: the server ignored `stream: true`. */
export function isJsonResponse(headers: Record<string, string>): boolean {
  const type = headers["content-type"] ?? "";
  return type.includes("application/json") && !type.includes("event-stream");
}

export async function readWhole(chunks: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const chunk of chunks) text += chunk;
  return text;
}

/** JSON starts with `{` or `[`; an event stream with a field (`data:`, `event:`…) or a comment (`:`). */
export function isEventStreamText(text: string): boolean {
  return /^(?:data|event|id|retry)?:/.test(text.trimStart());
}

export async function* eventsOfText(text: string): AsyncGenerator<SseEvent[], void, void> {
  yield* parseSseBatches(
    (async function* () {
      yield text;
    })(),
  );
}
