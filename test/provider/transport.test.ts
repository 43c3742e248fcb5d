import { getEventListeners } from "node:events";
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ProviderError } from "../../src/provider/errors.js";
import { postStream } from "../../src/provider/transport.js";
import { FakeProvider, sseData } from "../support/fake-provider.js";

let provider: FakeProvider;
beforeEach(async () => {
  provider = await FakeProvider.start();
});
afterEach(async () => {
  await provider.close();
});

function post(url: string, signal = new AbortController().signal, idleTimeoutMs = 5000, body = "{}") {
  return postStream(url, { headers: { "X-Test": "yes" }, body, signal, idleTimeoutMs });
}

async function readAll(chunks: AsyncIterable<string>): Promise<string> {
  let text = "";
  for await (const chunk of chunks) text += chunk;
  return text;
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error("expected a ProviderError");
}

/** A server that accepts connections and never answers, for header-phase timeouts and aborts. */
async function silentServer(): Promise<{
  url: string;
  allClosed: () => Promise<void>;
  close: () => Promise<void>;
}> {
  const sockets = new Set<Socket>();
  const open = new Set<Socket>();
  let onClosed = () => {};
  const server: Server = createServer(() => {});
  server.on("connection", (s) => {
    sockets.add(s);
    open.add(s);
    s.on("close", () => {
      open.delete(s);
      onClosed();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/v1/x`,
    /** Resolves once the client has closed every connection it opened. */
    allClosed: () =>
      new Promise<void>((resolve) => {
        onClosed = () => open.size === 0 && resolve();
        onClosed();
      }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe("postStream", () => {
  it("streams the body as text chunks with lower-case headers and sends the request as given", async () => {
    provider.enqueue({
      frames: [sseData({ a: 1 }), sseData({ b: "é漢" })],
      headers: { "X-Request-Id": "r1" },
    });
    const controller = new AbortController();
    const res = await post(
      `${provider.baseUrl}/chat/completions`,
      controller.signal,
      5000,
      '{"hello":"wörld"}',
    );
    expect(res.status).toBe(200);
    expect(res.headers["x-request-id"]).toBe("r1");
    expect(res.headers["content-type"]).toBe("text/event-stream");
    expect(await readAll(res.chunks)).toBe('data: {"a":1}\n\ndata: {"b":"é漢"}\n\n');
    expect(provider.requests[0].method).toBe("POST");
    expect(provider.requests[0].headers["x-test"]).toBe("yes");
    expect(provider.requests[0].body).toEqual({ hello: "wörld" });
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("throws the classified error for a non-2xx status after reading the body", async () => {
    provider.enqueue({
      status: 429,
      body: JSON.stringify({
        error: { message: "Rate limit reached", type: "tokens", code: "rate_limit_exceeded" },
      }),
      headers: { "retry-after": "3" },
    });
    const error = await failure(post(`${provider.baseUrl}/chat/completions`));
    expect(error.errorClass).toBe("rate_limit");
    expect(error.status).toBe(429);
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBe(3000);
    expect(error.message).toBe("Rate limit reached");
  });

  it("reports a reset before headers as a retryable network error naming ECONNRESET", async () => {
    provider.enqueue({ fault: { kind: "reset_before_headers" } });
    const error = await failure(post(`${provider.baseUrl}/chat/completions`));
    expect(error.errorClass).toBe("network");
    expect(error.retryable).toBe(true);
    expect(error.message).toContain("ECONNRESET");
    expect(error.duringBodyWrite).toBe(false);
  });

  it("reports a refused connection as ECONNREFUSED", async () => {
    const silent = await silentServer();
    const url = silent.url;
    await silent.close();
    const error = await failure(post(url));
    expect(error.errorClass).toBe("network");
    expect(error.message).toContain("ECONNREFUSED");
    expect(error.retryable).toBe(true);
  });

  it("marks a connection closed while the body is being written (R-RETRY-5)", async () => {
    provider.enqueue({ fault: { kind: "close_during_body" } });
    const big = JSON.stringify({ blob: "x".repeat(8 * 1024 * 1024) });
    const error = await failure(post(`${provider.baseUrl}/chat/completions`, undefined, 5000, big));
    expect(error.errorClass).toBe("network");
    expect(error.duringBodyWrite).toBe(true);
    expect(error.message).toMatch(/EPIPE|ECONNRESET/);
  });

  it("fails a reset mid-stream after delivering what arrived", async () => {
    provider.enqueue({
      frames: [sseData({ n: 1 }), sseData({ n: 2 }), sseData({ n: 3 })],
      fault: { kind: "reset_after", frames: 2 },
    });
    const res = await post(`${provider.baseUrl}/chat/completions`);
    const seen: string[] = [];
    const error = await failure(
      (async () => {
        for await (const chunk of res.chunks) seen.push(chunk);
      })(),
    );
    expect(seen.join("")).toContain('{"n":2}');
    expect(error.errorClass).toBe("network");
    expect(error.retryable).toBe(true);
    expect(error.duringBodyWrite).toBe(false);
  });

  it("times out when no byte arrives mid-stream for idleTimeoutMs", async () => {
    provider.enqueue({
      frames: [sseData({ n: 1 }), sseData({ n: 2 })],
      fault: { kind: "stall_after", frames: 1 },
    });
    const controller = new AbortController();
    const res = await post(`${provider.baseUrl}/chat/completions`, controller.signal, 200);
    // The server stalls for good: only the idle timer can end the read.
    const error = await failure(readAll(res.chunks));
    expect(error.errorClass).toBe("timeout");
    expect(error.retryable).toBe(true);
    expect(error.message).toBe("no data from the provider for 0.2s (stream idle timeout)");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("times out when the response headers never come", async () => {
    const silent = await silentServer();
    try {
      const error = await failure(post(silent.url, undefined, 200));
      expect(error.errorClass).toBe("timeout");
      // The timer that fired is the one armed with idleTimeoutMs (not some shorter connect limit).
      expect(error.message).toBe("no data from the provider for 0.2s (stream idle timeout)");
    } finally {
      await silent.close();
    }
  });

  it("restarts the idle timer on every chunk", async () => {
    // Six frames 400 ms apart outlast the 1.5 s idle timeout in all, while every gap stays far
    // below it (1.1 s of slack for a loaded machine's scheduling).
    const frames = Array.from({ length: 6 }, (_, n) => sseData({ n }));
    provider.enqueue({ frames, frameDelayMs: 400 });
    const res = await post(`${provider.baseUrl}/chat/completions`, undefined, 1500);
    const text = await readAll(res.chunks);
    expect(text).toContain('{"n":5}');
  });

  it("cancels at once while waiting for headers", async () => {
    const silent = await silentServer();
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50);
      // A ten-minute idle timer: only the abort can end the wait within the test's time.
      const error = await failure(post(silent.url, controller.signal, 600_000));
      expect(error.errorClass).toBe("cancelled");
      expect(error.retryable).toBe(false);
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      // The connection is released, not left waiting for headers.
      await silent.allClosed();
    } finally {
      await silent.close();
    }
  });

  it("cancels at once mid-stream and releases the connection", async () => {
    provider.enqueue({
      frames: [sseData({ n: 1 }), sseData({ n: 2 })],
      fault: { kind: "stall_after", frames: 1 },
    });
    const controller = new AbortController();
    const res = await post(`${provider.baseUrl}/chat/completions`, controller.signal, 10_000);
    const iterator = res.chunks[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toContain('"n":1');
    const pending = iterator.next();
    controller.abort();
    const error = await failure(pending);
    expect(error.errorClass).toBe("cancelled");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("rejects a malformed URL as a non-retryable error", async () => {
    const error = await failure(post("not a url"));
    expect(error.errorClass).toBe("bad_request");
    expect(error.retryable).toBe(false);
    expect((await failure(post("ftp://127.0.0.1/v1"))).errorClass).toBe("bad_request");
  });

  it("rejects at once when the signal is already aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(post(`${provider.baseUrl}/chat/completions`, controller.signal));
    expect(error.errorClass).toBe("cancelled");
    expect(provider.requests).toHaveLength(0);
  });

  it("destroys the socket when the consumer stops early", async () => {
    let closed!: () => void;
    const socketClosed = new Promise<void>((resolve) => (closed = resolve));
    const server = createServer((req, res) => {
      req.socket.on("close", closed);
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(sseData({ n: 1 }));
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const controller = new AbortController();
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/x`;
      const res = await post(url, controller.signal, 10_000);
      for await (const _chunk of res.chunks) break;
      expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
      await socketClosed;
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});

describe("postStream over https", () => {
  it("speaks TLS for an https URL: a server that answers in plain HTTP is a classified failure", async () => {
    const error = await failure(post(`https://127.0.0.1:${provider.port}/v1/x`));
    expect(error.errorClass).not.toBe("cancelled");
    expect(provider.requests).toHaveLength(0);
  });

  it("a cancel while the TLS module is still loading is a cancellation, not a hang", async () => {
    const controller = new AbortController();
    const pending = post(`https://127.0.0.1:${provider.port}/v1/x`, controller.signal, 60_000);
    controller.abort();
    const error = await failure(pending);
    expect(error.errorClass).toBe("cancelled");
    expect(provider.requests).toHaveLength(0);
  });
});
