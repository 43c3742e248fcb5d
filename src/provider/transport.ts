// HTTP POST with a streamed response body, on node:http/https rather than fetch: the retry policy
// must know whether a connection died while the request body was still being written (R-RETRY-5),
// which fetch hides. Every failure leaves here as a classified ProviderError.
import { type ClientRequest, type IncomingMessage, request as httpRequest } from "node:http";
import { classifyHttpError, redactSecrets } from "./classify.js";
import { cancelledError, ProviderError } from "./errors.js";
import { flattenHeaders, lowerKeys } from "./http-headers.js";

export interface StreamResponse {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** UTF-8 text chunks of the body as they arrive. Iterate it to the end or break out: both release the socket. */
  chunks: AsyncIterable<string>;
}

export interface PostStreamInit {
  headers: Record<string, string>;
  /** A string, or chunks written in order (the openai-chat body shares its history bytes between rounds). */
  body: string | readonly Buffer[];
  signal: AbortSignal;
  idleTimeoutMs: number;
  /**
   * A binary body (Bedrock's AWS event stream): a 2xx body's chunks are latin1 strings, one
   * character per byte (`Buffer.from(chunk, "latin1")` gives the bytes back). Error bodies stay UTF-8.
   */
  binary?: boolean;
}

/** Above this many buffered chunks the socket is paused until the consumer catches up. */
const HIGH_WATER_CHUNKS = 64;

export async function postStream(url: string, init: PostStreamInit): Promise<StreamResponse> {
  if (init.signal.aborted) throw cancelledError();
  const target = parseUrl(url);
  // node:https (and TLS with it) is loaded only for an https URL: a local server never pays for it.
  const send = target.protocol === "https:" ? (await import("node:https")).request : httpRequest;
  if (init.signal.aborted) throw cancelledError();
  // Chunks go to the socket as they are: the encoded history is shared between rounds.
  const headers: Record<string, string> = { "content-type": "application/json", ...lowerKeys(init.headers) };
  const chunks = typeof init.body === "string" ? [Buffer.from(init.body, "utf8")] : init.body;
  headers["content-length"] = String(chunks.reduce((sum, chunk) => sum + chunk.length, 0));

  const call = new Call(init.signal, init.idleTimeoutMs, init.binary === true);
  const req = send(target, { method: "POST", headers });
  call.attach(req);
  for (const chunk of chunks) req.write(chunk);
  req.end();
  return call.response;
}

/** One request's lifetime: connect → body write → headers → body stream, with one cleanup path. */
class Call {
  readonly response: Promise<StreamResponse>;
  private resolveResponse!: (value: StreamResponse) => void;
  private rejectResponse!: (error: ProviderError) => void;
  private req: ClientRequest | undefined;
  private res: IncomingMessage | undefined;
  private timer: NodeJS.Timeout | undefined;
  private bodyWritten = false;
  /** Only a connection that was up can close "while the body is being written"; DNS or refused connects cannot. */
  private connected = false;
  private settled = false;
  private finished = false;
  private readonly queue = new ChunkQueue(() => this.res?.resume());
  private readonly onAbort = () => this.fail(cancelledError(), true);

  constructor(
    private readonly signal: AbortSignal,
    idleTimeoutMs: number,
    private readonly binary = false,
  ) {
    this.response = new Promise<StreamResponse>((resolve, reject) => {
      this.resolveResponse = resolve;
      this.rejectResponse = reject;
    });
    signal.addEventListener("abort", this.onAbort, { once: true });
    this.timer = setTimeout(() => this.fail(idleError(idleTimeoutMs), true), idleTimeoutMs);
  }

  attach(req: ClientRequest): void {
    this.req = req;
    req.on("finish", () => {
      this.bodyWritten = true;
      this.touch();
    });
    req.on("socket", (socket) => {
      if (req.reusedSocket || !socket.connecting) this.connected = true;
      else socket.once("connect", () => (this.connected = true));
    });
    req.on("error", (error) => {
      // A pooled keep-alive socket that the server had already closed fails before any response
      // byte: that is the stale connection R-RETRY-5 replaces at once, like a body-write failure.
      const stale = req.reusedSocket && this.res === undefined;
      // `finish` only says the bytes reached our kernel's buffer, not the server. A reset (RST,
      // or EPIPE on write) before any response means the server closed with our bytes unread:
      // the body never arrived whole, however far the local write got.
      const unread = this.res === undefined && isHardReset(error);
      this.fail(networkError(error, (this.connected && (!this.bodyWritten || unread)) || stale), false);
    });
    req.on("response", (res) => this.onResponse(res));
  }

  private onResponse(res: IncomingMessage): void {
    this.res = res;
    this.touch();
    const status = res.statusCode ?? 0;
    const binary = this.binary && status >= 200 && status < 300;
    res.setEncoding(binary ? "latin1" : "utf8");
    const headers = flattenHeaders(res.headers);
    let first = true;
    res.on("data", (chunk: string) => {
      this.touch();
      // A UTF-8 byte-order mark is no part of the text (an SSE parser would take it into the first
      // field's name and lose the first frame); TextDecoder drops it, setEncoding does not.
      if (first && chunk !== "" && !binary) [first, chunk] = [false, chunk.replace(/^\uFEFF/, "")];
      if (this.queue.push(chunk) > HIGH_WATER_CHUNKS) res.pause();
    });
    res.on("end", () => {
      this.queue.end();
      this.cleanup(false);
    });
    res.on("error", (error) => this.fail(networkError(error, false), false));
    res.on("close", () => {
      if (!res.complete) this.fail(networkError(closedError(), false), false);
    });
    // A 2xx HTML page (a login page, captive portal) will never be a stream: classified as an error.
    if (status >= 200 && status < 300 && !/\btext\/html\b/i.test(headers["content-type"] ?? "")) {
      this.settled = true;
      this.resolveResponse({ status, headers, chunks: this.iterate() });
      return;
    }
    void this.readErrorBody(status, headers);
  }

  private async readErrorBody(status: number, headers: Record<string, string>): Promise<void> {
    let text = "";
    try {
      for await (const chunk of this.queue.drain()) text += chunk;
    } catch (error) {
      if (error instanceof ProviderError && error.errorClass === "cancelled") return;
    }
    this.settled = true;
    this.cleanup(false);
    this.rejectResponse(classifyHttpError(status, text, headers));
  }

  private iterate(): AsyncGenerator<string, void, void> {
    // Early exit by the consumer (break / throw) must not leave the socket streaming.
    return this.queue.drain(() => this.cleanup(!this.finished));
  }

  private touch(): void {
    this.timer?.refresh();
  }

  private fail(error: ProviderError, immediate: boolean): void {
    if (this.finished) return;
    this.queue.fail(error, immediate);
    this.cleanup(true);
    if (!this.settled) {
      this.settled = true;
      this.rejectResponse(error);
    }
  }

  private cleanup(destroy: boolean): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.signal.removeEventListener("abort", this.onAbort);
    if (this.finished) return;
    this.finished = true;
    if (destroy) {
      this.res?.destroy();
      this.req?.destroy();
    }
  }
}

/** A single-consumer buffer between socket events and an async iterator. */
class ChunkQueue {
  private buffer: string[] = [];
  private ended = false;
  private error: ProviderError | undefined;
  private wake: (() => void) | undefined;

  constructor(private readonly onDrained: () => void) {}

  push(chunk: string): number {
    this.buffer.push(chunk);
    this.signal();
    return this.buffer.length;
  }

  end(): void {
    this.ended = true;
    this.signal();
  }

  /** `immediate` drops what is buffered (cancel, idle timeout); otherwise buffered text is delivered first. */
  fail(error: ProviderError, immediate: boolean): void {
    if (this.ended || this.error) return;
    this.error = error;
    if (immediate) this.buffer = [];
    this.signal();
  }

  /**
   * The buffered text, as it arrives. What arrived while the consumer was busy comes as one
   * string: each step of an async iterator costs more than joining. `onExit` runs however the
   * consumer leaves (end, error, break).
   */
  async *drain(onExit?: () => void): AsyncGenerator<string, void, void> {
    try {
      for (;;) {
        if (this.buffer.length > 0) {
          const text = this.buffer.length === 1 ? this.buffer[0] : this.buffer.join("");
          this.buffer = [];
          this.onDrained();
          yield text;
          continue;
        }
        if (this.error) throw this.error;
        if (this.ended) return;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
        });
      }
    } finally {
      onExit?.();
    }
  }

  private signal(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

function parseUrl(url: string): URL {
  let target: URL | undefined;
  try {
    target = new URL(url);
  } catch {}
  if (!target || (target.protocol !== "http:" && target.protocol !== "https:")) {
    // A configuration mistake, not a transient failure: retrying cannot help.
    throw new ProviderError({
      errorClass: "bad_request",
      retryable: false,
      message: `invalid provider URL: ${redactSecrets(url)}`,
    });
  }
  return target;
}

function networkError(error: unknown, duringBodyWrite: boolean): ProviderError {
  const err = error as NodeJS.ErrnoException;
  const code = err?.code ?? "ECONNRESET";
  const detail =
    err?.message && !err.message.includes(code) ? `${code}: ${err.message}` : (err?.message ?? code);
  return new ProviderError({
    errorClass: "network",
    retryable: true,
    message: `network error${duringBodyWrite ? " while sending the request" : ""}: ${detail}`,
    duringBodyWrite,
  });
}

/**
 * A reset reported by the kernel (a read or write syscall failing with ECONNRESET / EPIPE), as
 * opposed to Node's "socket hang up", which is an orderly close after the server read everything.
 */
function isHardReset(error: unknown): boolean {
  const err = error as NodeJS.ErrnoException;
  return (err?.code === "ECONNRESET" || err?.code === "EPIPE") && typeof err.syscall === "string";
}

function closedError(): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error("connection closed before the response was complete");
  error.code = "ECONNRESET";
  return error;
}

function idleError(ms: number): ProviderError {
  return new ProviderError({
    errorClass: "timeout",
    retryable: true,
    message: `no data from the provider for ${Math.round(ms / 100) / 10}s (stream idle timeout)`,
  });
}
