// SSE micro-benchmark: a recorded ~10 MB OpenAI chunk stream (token-sized text, reasoning and
// tool-argument deltas, as the test builder writes them) cut at arbitrary network-like chunk
// boundaries, parsed by the product's SSE framing and folded by its stream state machine.
import { ChatStreamState } from "../../src/provider/openai-stream.js";
import { parseSseBatches } from "../../src/provider/sse.js";
import { openaiStream } from "../../test/support/openai-script.js";

/** Deterministic PRNG so every run measures the same stream. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const WORDS = [
  "the",
  " function",
  " returns",
  " a",
  " value",
  "\n",
  " const",
  " x",
  " =",
  " await",
  "(",
  ")",
];

export interface SseStream {
  chunks: string[];
  bytes: number;
  textChars: number;
}

export function recordStream(targetBytes = 10 * 1024 * 1024): SseStream {
  const rand = prng(42);
  const builder = openaiStream("bench-model");
  let approx = 0;
  let textChars = 0;
  let call = 0;
  while (approx < targetBytes) {
    const kind = rand();
    if (kind < 0.1) builder.reasoning(WORDS[Math.floor(rand() * WORDS.length)]);
    else if (kind < 0.97) {
      const word = WORDS[Math.floor(rand() * WORDS.length)];
      textChars += word.length;
      builder.text(word);
    } else {
      const content = "x".repeat(200 + Math.floor(rand() * 800));
      builder.toolCall({
        id: `call_${call++}`,
        name: "write_file",
        args: { path: "a.ts", content },
        chunks: 8,
      });
    }
    approx += 240; // about one frame's bytes
  }
  const text = builder
    .finish("tool_calls")
    .usage({ prompt_tokens: 100, completion_tokens: 50 })
    .frameList.join("");
  // Network-like cuts: 1–16 KB, landing anywhere (inside frames, inside JSON, inside UTF-8 text).
  const chunks: string[] = [];
  for (let at = 0; at < text.length; ) {
    const len = 1024 + Math.floor(rand() * 15 * 1024);
    chunks.push(text.slice(at, at + len));
    at += len;
  }
  return { chunks, bytes: Buffer.byteLength(text), textChars };
}

async function* feed(chunks: string[]): AsyncGenerator<string> {
  for (const c of chunks) yield c;
}

/** One pass; returns elapsed ms. Checks the result so a broken parser cannot look fast. */
export async function parseOnce(stream: SseStream): Promise<number> {
  const started = process.hrtime.bigint();
  const state = new ChatStreamState(200);
  let events = 0;
  for await (const frames of parseSseBatches(feed(stream.chunks)))
    for (const frame of frames) events += state.handleData(frame.data, frame.event).length;
  const done = state.finish().find((e) => e.type === "done");
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (done?.type !== "done" || done.result.text.length !== stream.textChars || events === 0)
    throw new Error("SSE benchmark: the parsed stream does not match what was recorded");
  if (done.result.toolCalls.length === 0) throw new Error("SSE benchmark: no tool calls accumulated");
  return ms;
}
