// R-RETRY-5 with a body far larger than the socket buffers: the server reads 64 KiB of it and
// closes. The transport must see that the body never left (not trust the request's `finish`
// event, which fires when the bytes reach the kernel), and the retry policy must replace the
// connection once, at once, outside the budget, then fail with the transport cause.
import { createServer, type Server, type Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { RetryConfig } from "../../src/config/types.js";
import { ProviderError } from "../../src/provider/errors.js";
import { type RetryScheduled, streamWithRetry } from "../../src/provider/retry.js";
import { createOpenAIChatAdapter } from "../../src/provider/openai-chat.js";
import { postStream } from "../../src/provider/transport.js";
import { baseRequest } from "./openai-helpers.js";

const READ_LIMIT = 64 * 1024;

interface ClosingServer {
  url: string;
  connections: number;
  /** Bytes each connection received before the server closed it. */
  received: number[];
  close(): Promise<void>;
}

/** A plain TCP server: reads 64 KiB of each request, then closes the connection without answering. */
async function closingServer(): Promise<ClosingServer> {
  const sockets = new Set<Socket>();
  const state = { connections: 0, received: [] as number[] };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const slot = state.connections++;
    state.received[slot] = 0;
    socket.on("data", (chunk) => {
      state.received[slot] += chunk.length;
      if (state.received[slot] >= READ_LIMIT) socket.destroy();
    });
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get connections() {
      return state.connections;
    },
    received: state.received,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let server: ClosingServer;
beforeEach(async () => {
  server = await closingServer();
});
afterEach(async () => {
  await server.close();
});

// 1 MiB fits in the kernel's socket buffers (so the request's `finish` fires), 40 MiB does not.
describe.each([
  ["1 MiB", 1024 * 1024],
  ["40 MiB", 40 * 1024 * 1024],
])("a connection closed after 64 KiB of a %s body", (_label, BODY_BYTES) => {
  it("is reported as a body-write failure", async () => {
    const body = [Buffer.alloc(BODY_BYTES, 0x61)];
    const error = await postStream(`${server.url}/chat/completions`, {
      headers: {},
      body,
      signal: new AbortController().signal,
      idleTimeoutMs: 60_000,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ errorClass: "network", duringBodyWrite: true, retryable: true });
    expect(server.received[0]).toBeLessThan(BODY_BYTES);
  });

  it("is retried once at once, then the round fails with the transport cause, without backoff", async () => {
    const retry: RetryConfig = {
      maxRetries: 5,
      baseDelaySeconds: 30,
      factor: 2,
      jitter: 0,
      maxDelaySeconds: 30,
    };
    const adapter = createOpenAIChatAdapter({ api: "openai-chat", baseUrl: server.url, headers: {} });
    const big = "x".repeat(BODY_BYTES);
    const request = baseRequest({ messages: [{ role: "user", content: [{ type: "text", text: big }] }] });
    const retries: RetryScheduled[] = [];
    const error = await streamWithRetry(adapter, request, {
      retry,
      signal: new AbortController().signal,
      idleTimeoutMs: 60_000,
      deadline: null,
      onEvent: () => {},
      onDiscard: () => {},
      onRetry: (info) => retries.push(info),
    }).catch((e) => e);
    expect(error).toMatchObject({ errorClass: "network", duringBodyWrite: true });
    expect(error.message).toMatch(/while sending the request/);
    expect(server.connections).toBe(2);
    expect(retries.map((r) => r.delayMs)).toEqual([0]);
  });
});
