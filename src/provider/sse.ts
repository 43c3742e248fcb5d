// SSE framing (R-PROV-3) on eventsource-parser: comment lines (`: keep-alive`,
// `: OPENROUTER PROCESSING`) never surface; events are yielded in arrival order.
import { createParser } from "eventsource-parser";

export interface SseEvent {
  event?: string;
  data: string;
}

export async function* parseSse(chunks: AsyncIterable<string>): AsyncGenerator<SseEvent, void, void> {
  let pending: SseEvent[] = [];
  const parser = createParser({
    onEvent: (message) => {
      pending.push(
        message.event === undefined ? { data: message.data } : { event: message.event, data: message.data },
      );
    },
  });
  for await (const chunk of chunks) {
    parser.feed(chunk);
    if (pending.length === 0) continue;
    const ready = pending;
    pending = [];
    yield* ready;
  }
  // A last frame without its blank line still counts: servers that close abruptly after
  // `data: [DONE]` or a final JSON frame should not lose it.
  parser.feed("\n\n");
  yield* pending;
}
