// A finished answer is not held by a connection the server keeps open (wire facts §1d: DeepSeek
// under load sends keep-alives that never end with a terminal frame): once the finish reason
// (Anthropic: stop_reason) has come, trailing frames get a short grace, then the answer ends and
// the connection is released — keep-alive comments or pings do not extend it. Frames that follow
// the finish at once (usage) are still read. Over real HTTP.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createAnthropicAdapter } from "../../src/provider/anthropic-messages.js";
import { ProviderError } from "../../src/provider/errors.js";
import type { ProviderAdapter, StreamResult } from "../../src/provider/types.js";
import { FakeProvider, sseData as f, sseEvent } from "../support/fake-provider.js";
import { baseRequest, collect } from "./openai-helpers.js";

let fake: FakeProvider;
beforeEach(async () => {
  fake = await FakeProvider.start();
});
afterEach(async () => {
  await fake.close();
});

/** Keep-alives for far longer than the test may run: only ending after the finish can pass. */
const endless = (frame: string) => Array.from({ length: 600 }, () => frame);

describe("a connection kept open after the finish", () => {
  it("chat: keep-alive comments after finish and usage never hold the answer", async () => {
    fake.enqueue({
      frames: [
        f({ choices: [{ index: 0, delta: { content: "done" }, finish_reason: null }] }),
        f({ choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }),
        f({ choices: [], usage: { prompt_tokens: 12, completion_tokens: 3 } }),
        ...endless(": keep-alive\n\n"),
      ],
      frameDelayMs: 100,
    });
    // Keep-alives every 100 ms hold the 2 s idle timeout off for good.
    const { result, error } = await collect(fake, baseRequest(), { idleTimeoutMs: 2000 });
    expect(error).toBeUndefined();
    // The usage came 100 ms after the finish: read, not cut off.
    expect(result).toMatchObject({ text: "done", finish: "stop", usage: { prompt: 12, completion: 3 } });
  });

  it("anthropic: pings after the stop reason, message_stop never sent", async () => {
    const ev = (type: string, body: object = {}) => sseEvent(type, { type, ...body });
    fake.enqueue({
      frames: [
        ev("message_start", {
          message: {
            id: "m",
            type: "message",
            role: "assistant",
            content: [],
            usage: { input_tokens: 9, output_tokens: 1 },
          },
        }),
        ev("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
        ev("content_block_delta", { index: 0, delta: { type: "text_delta", text: "done" } }),
        ev("content_block_stop", { index: 0 }),
        ev("message_delta", {
          delta: { stop_reason: "end_turn", stop_sequence: null },
          usage: { output_tokens: 4 },
        }),
        ...endless(ev("ping")),
      ],
      frameDelayMs: 100,
    });
    const adapter: ProviderAdapter = createAnthropicAdapter({
      api: "anthropic-messages",
      baseUrl: fake.baseUrl,
      apiKey: "k",
      headers: {},
    });
    let result: StreamResult | undefined;
    for await (const event of adapter.stream(baseRequest(), {
      signal: new AbortController().signal,
      idleTimeoutMs: 2000,
    }))
      if (event.type === "done") result = event.result;
    expect(result).toMatchObject({ text: "done", finish: "stop", usage: { prompt: 9, completion: 4 } });
  });

  it("keep-alives before any finish still wait for the answer (the grace starts at the finish)", async () => {
    fake.enqueue({
      frames: [
        ...Array.from({ length: 30 }, () => ": keep-alive\n\n"),
        f({ choices: [{ index: 0, delta: { content: "late" }, finish_reason: "stop" }] }),
        "data: [DONE]\n\n",
      ],
      frameDelayMs: 100,
    });
    // 3 s of keep-alives, longer than the 2 s grace would be.
    const { result, error } = await collect(fake, baseRequest(), { idleTimeoutMs: 2000 });
    expect(error).toBeUndefined();
    expect(result?.text).toBe("late");
  });

  it("the user's cancel still ends the stream as cancelled", async () => {
    fake.enqueue({
      frames: [f({ choices: [{ index: 0, delta: { content: "x" } }] }), ...endless(": keep-alive\n\n")],
      frameDelayMs: 50,
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const { error } = await collect(fake, baseRequest(), {
      signal: controller.signal,
      idleTimeoutMs: 20_000,
    });
    expect(error).toBeInstanceOf(ProviderError);
    expect(error?.errorClass).toBe("cancelled");
  });
});
