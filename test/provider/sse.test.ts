import { describe, expect, it } from "vitest";
import { parseSse, type SseEvent } from "../../src/provider/sse.js";

async function* from(chunks: string[]) {
  for (const chunk of chunks) yield chunk;
}

async function all(chunks: string[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const event of parseSse(from(chunks))) out.push(event);
  return out;
}

describe("parseSse", () => {
  it("yields data and event names, across arbitrary chunk boundaries, ignoring comments", async () => {
    const text =
      ': OPENROUTER PROCESSING\n\ndata: {"a":1}\n\n: keep-alive\n\nevent: ping\ndata: {"type":"ping"}\n\ndata: [DONE]\n\n';
    const expected = [{ data: '{"a":1}' }, { event: "ping", data: '{"type":"ping"}' }, { data: "[DONE]" }];
    expect(await all([text])).toEqual(expected);
    expect(await all(text.split(""))).toEqual(expected);
  });

  it("handles CRLF line endings and multi-line data", async () => {
    expect(await all(["data: a\r\ndata: b\r\n\r\n"])).toEqual([{ data: "a\nb" }]);
  });

  it("keeps a final frame that lacks its blank line", async () => {
    expect(await all(['data: {"x":1}\n\ndata: [DONE]'])).toEqual([{ data: '{"x":1}' }, { data: "[DONE]" }]);
  });

  it("parses a 10 MB stream quickly (no quadratic buffering)", async () => {
    const frame = `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: "hello world " } }] })}\n\n`;
    const body = frame.repeat(Math.ceil((10 * 1024 * 1024) / frame.length));
    const chunks: string[] = [];
    for (let i = 0; i < body.length; i += 16_384) chunks.push(body.slice(i, i + 16_384));
    const started = performance.now();
    let count = 0;
    for await (const _event of parseSse(from(chunks))) count++;
    expect(count).toBe(body.length / frame.length);
    expect(performance.now() - started).toBeLessThan(1500);
  });
});
