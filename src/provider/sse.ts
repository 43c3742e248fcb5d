// SSE framing (R-PROV-3) on eventsource-parser: comment lines (`: keep-alive`,
// `: OPENROUTER PROCESSING`) never surface; events come in arrival order.
//
// Frames are handed over one array per network chunk, not one at a time: a chunk carries dozens
// of token-sized frames, and every step of an async iterator costs promises, so per-frame
// yielding cost more than parsing the frames (the SSE bench row).
import { createParser } from "eventsource-parser";

export interface SseEvent {
  event?: string;
  data: string;
}

/** The frames of an SSE body: one non-empty array per chunk that completed any, in order. */
export async function* parseSseBatches(
  chunks: AsyncIterable<string>,
): AsyncGenerator<SseEvent[], void, void> {
  let pending: SseEvent[] = [];
  const parser = createParser({
    // The parser's own message object (it also carries `id`, unused here): no copy per frame.
    onEvent: (message) => pending.push(message),
  });
  for await (const chunk of chunks) {
    parser.feed(chunk);
    if (pending.length === 0) continue;
    const ready = pending;
    pending = [];
    yield ready;
  }
  // A last frame without its blank line still counts: servers that close abruptly after
  // `data: [DONE]` or a final JSON frame should not lose it.
  parser.feed("\n\n");
  if (pending.length > 0) yield pending;
}
