// Transport faults seen through the openai-chat adapter: resets, stalls, aborts, body-write failure.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIChatAdapter } from "../../src/provider/openai-chat.js";
import { FakeProvider } from "../support/fake-provider.js";
import { openaiStream } from "../support/openai-script.js";
import { baseRequest, collect, texts } from "./openai-helpers.js";

let provider: FakeProvider;
beforeAll(async () => {
  provider = await FakeProvider.start();
});
afterAll(async () => {
  await provider.close();
});

describe("faults through the adapter", () => {
  it("reset before headers: retryable network error, nothing streamed", async () => {
    provider.enqueue(openaiStream().text("x").finish().resetBeforeHeaders().build());
    const { events, error } = await collect(provider);
    expect(events).toEqual([]);
    expect(error?.errorClass).toBe("network");
    expect(error?.retryable).toBe(true);
    expect(error?.message).toContain("ECONNRESET");
  });

  it("reset mid-stream after text: network error after the text, usage attached", async () => {
    provider.enqueue(
      openaiStream()
        .frame({
          choices: [{ index: 0, delta: { content: "Hello" }, finish_reason: null }],
          usage: { prompt_tokens: 11, completion_tokens: 1 },
        })
        .text(" world")
        .finish("stop")
        .resetAfter(2)
        .build(),
    );
    const { events, error } = await collect(provider);
    expect(texts(events, "text_delta")).toBe("Hello world");
    expect(error?.errorClass).toBe("network");
    expect(error?.retryable).toBe(true);
    expect(error?.usage).toEqual({ prompt: 11, completion: 1, cacheRead: 0, cacheWrite: 0 });
  });

  it("stall mid-stream: idle timeout", async () => {
    // The server stalls for good, so only the idle timer can end this stream.
    provider.enqueue(openaiStream().text("a").text("b").finish().stallAfter(2).build());
    const { events, error } = await collect(provider, baseRequest(), { idleTimeoutMs: 200 });
    expect(texts(events, "text_delta")).toBe("a");
    expect(error?.errorClass).toBe("timeout");
    expect(error?.retryable).toBe(true);
    expect(error?.message).toContain("no data from the provider for 0.2s");
  });

  it("slow but steady stream survives an idle timeout shorter than the whole stream", async () => {
    // Four frames 400 ms apart take longer than the 1.5 s idle timeout in all, but every gap is
    // far below it: the timer restarts on each chunk (a gap of 1.1 s of scheduling slack holds under load).
    provider.enqueue(openaiStream().text("a").text("b").text("c").finish().delay(400).build());
    const { result, error } = await collect(provider, baseRequest(), { idleTimeoutMs: 1500 });
    expect(error).toBeUndefined();
    expect(result?.text).toBe("abc");
  });

  it("abort mid-stream: cancelled at once", async () => {
    provider.enqueue(openaiStream().text("a").text("b").finish().stallAfter(2).build());
    const controller = new AbortController();
    const adapter = createOpenAIChatAdapter({ api: "openai-chat", baseUrl: provider.baseUrl, headers: {} });
    const seen: string[] = [];
    let caught: any;
    try {
      // The stream stalls for good and the idle timer is ten minutes: only the abort can end it
      // within the test's time, and it must say "cancelled", not "timeout".
      for await (const event of adapter.stream(baseRequest(), {
        signal: controller.signal,
        idleTimeoutMs: 600_000,
      })) {
        seen.push(event.type);
        if (event.type === "text_delta") setTimeout(() => controller.abort(), 20);
      }
    } catch (error) {
      caught = error;
    }
    expect(seen).toEqual(["text_delta"]);
    expect(caught?.errorClass).toBe("cancelled");
    expect(caught?.retryable).toBe(false);
  });

  it("connection closed while a multi-MB body is written: duringBodyWrite (R-RETRY-5)", async () => {
    provider.enqueue(openaiStream().closeDuringBody().build());
    const huge = "y".repeat(6 * 1024 * 1024);
    const { error } = await collect(
      provider,
      baseRequest({ messages: [{ role: "user", content: [{ type: "text", text: huge }] }] }),
    );
    expect(error?.errorClass).toBe("network");
    expect(error?.retryable).toBe(true);
    expect(error?.duringBodyWrite).toBe(true);
  });
});
