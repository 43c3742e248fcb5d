import { describe, expect, it } from "vitest";
import { parseSseBatches, type SseEvent } from "../../src/provider/sse.js";

async function* from(chunks: string[]) {
  for (const chunk of chunks) yield chunk;
}

async function all(chunks: string[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const batch of parseSseBatches(from(chunks))) {
    expect(batch.length).toBeGreaterThan(0);
    out.push(...batch);
  }
  return out;
}

describe("parseSseBatches", () => {
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

  it("hands over the frames each chunk completes as one batch, in order, none for a chunk that completes none", async () => {
    const batches: SseEvent[][] = [];
    const chunks = ["data: 1\n\ndata: 2\n\nda", "ta: 3", "\n\n: keep-alive\n\n", "data: 4\n\n"];
    for await (const batch of parseSseBatches(from(chunks))) batches.push(batch);
    expect(batches).toEqual([[{ data: "1" }, { data: "2" }], [{ data: "3" }], [{ data: "4" }]]);
  });

  it("keeps a final frame that lacks its blank line", async () => {
    expect(await all(['data: {"x":1}\n\ndata: [DONE]'])).toEqual([{ data: '{"x":1}' }, { data: "[DONE]" }]);
  });

  it("parses a 10 MB stream cut into 16 KB chunks: every frame, in order (its speed is the SSE bench row)", async () => {
    const frame = (n: number) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: `hello world ${n % 10}` } }] })}\n\n`;
    const count = Math.ceil((10 * 1024 * 1024) / frame(0).length);
    const body = Array.from({ length: count }, (_, n) => frame(n)).join("");
    const chunks: string[] = [];
    for (let i = 0; i < body.length; i += 16_384) chunks.push(body.slice(i, i + 16_384));
    let seen = 0;
    let wrong = 0;
    for await (const batch of parseSseBatches(from(chunks))) {
      for (const event of batch) {
        if (`data: ${event.data}\n\n` !== frame(seen)) wrong++;
        seen++;
      }
    }
    expect(wrong).toBe(0);
    expect(seen).toBe(count);
  });
});
