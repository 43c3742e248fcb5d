// R-RETRY-5: a pooled keep-alive connection that the server has dropped fails before any response
// byte. That request is retried once at once (no backoff, not counted against maxRetries).
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAIChatAdapter } from "../../src/provider/openai-chat.js";
import { type RetryScheduled, streamWithRetry } from "../../src/provider/retry.js";
import type { NormalizedRequest } from "../../src/provider/types.js";
import { openaiText } from "../support/openai-script.js";
import { retryOptions } from "./openai-helpers.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** Answers every request, but drops a kept-alive socket when a second request arrives on it. */
async function droppingServer(): Promise<{ baseUrl: string; requests: () => number; sockets: Set<Socket> }> {
  const served = new WeakMap<Socket, number>();
  const sockets = new Set<Socket>();
  let requests = 0;
  const frames = openaiText("hello").frames ?? [];
  server = createServer((req, res) => {
    requests++;
    const count = (served.get(req.socket) ?? 0) + 1;
    served.set(req.socket, count);
    if (count > 1) {
      req.socket.destroy();
      return;
    }
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream", connection: "keep-alive" });
      for (const frame of frames) res.write(frame);
      res.end();
    });
  });
  server.on("connection", (s) => sockets.add(s));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests: () => requests, sockets };
}

const request: NormalizedRequest = {
  model: "m",
  system: "",
  tools: [],
  messages: [{ role: "user", content: [{ type: "text", text: "hi" }] }],
  images: false,
};

describe("stale keep-alive connections", () => {
  it("replaces a dropped pooled connection at once, without backoff or spending the retry budget", async () => {
    const fake = await droppingServer();
    const adapter = createOpenAIChatAdapter({ api: "openai-chat", baseUrl: fake.baseUrl, headers: {} });
    const retries: RetryScheduled[] = [];
    const sleeps: number[] = [];
    const run = () =>
      streamWithRetry(
        adapter,
        request,
        retryOptions({
          retry: { maxRetries: 0, baseDelaySeconds: 30, factor: 2, jitter: 0, maxDelaySeconds: 30 },
          idleTimeoutMs: 5000,
          onRetry: (info) => retries.push(info),
          sleep: async (ms) => {
            sleeps.push(ms);
          },
        }),
      );
    expect((await run()).text).toBe("hello");
    // The second request goes out on the pooled socket, which the server drops.
    expect((await run()).text).toBe("hello");
    expect(fake.requests()).toBe(3);
    expect(fake.sockets.size).toBe(2);
    expect(retries).toHaveLength(1);
    expect(retries[0].delayMs).toBe(0);
    expect(sleeps.every((ms) => ms === 0)).toBe(true);
  });
});
