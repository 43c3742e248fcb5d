// Anthropic stream shapes beyond the recorded ones, over real HTTP (wire facts §2).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAnthropicAdapter } from "../../src/provider/anthropic-messages.js";
import type { ProviderEvent, StreamResult } from "../../src/provider/types.js";
import { FakeProvider, sseEvent } from "../support/fake-provider.js";
import { baseRequest } from "./openai-helpers.js";

let fake: FakeProvider;
beforeAll(async () => {
  fake = await FakeProvider.start();
});
afterAll(async () => {
  await fake.close();
});

const ev = (type: string, body: object = {}) => sseEvent(type, { type, ...body });
const start = ev("message_start", {
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    content: [],
    usage: { input_tokens: 9, output_tokens: 1 },
  },
});

async function play(frames: string[]): Promise<StreamResult | undefined> {
  fake.enqueue({ frames });
  const adapter = createAnthropicAdapter({
    api: "anthropic-messages",
    baseUrl: fake.baseUrl,
    apiKey: "k",
    headers: {},
  });
  const events: ProviderEvent[] = [];
  for await (const event of adapter.stream(baseRequest(), {
    signal: new AbortController().signal,
    idleTimeoutMs: 20_000,
  }))
    events.push(event);
  const done = events.find((e) => e.type === "done");
  return done?.type === "done" ? done.result : undefined;
}

describe("tool_use blocks", () => {
  it("a block whose content_block_stop never came keeps the input its start gave; one without any takes {}", async () => {
    const result = await play([
      start,
      ev("content_block_start", {
        index: 0,
        content_block: { type: "tool_use", id: "toolu_1", name: "read_file", input: { path: "a.txt" } },
      }),
      ev("content_block_start", {
        index: 1,
        content_block: { type: "tool_use", id: "toolu_2", name: "glob", input: {} },
      }),
      ev("message_delta", {
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: { output_tokens: 12 },
      }),
      ev("message_stop"),
    ]);
    expect(result?.finish).toBe("tool_calls");
    expect(result?.toolCalls).toEqual([
      { id: "toolu_1", name: "read_file", arguments: '{"path":"a.txt"}' },
      { id: "toolu_2", name: "glob", arguments: "{}" },
    ]);
  });
});
