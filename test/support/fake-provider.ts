// A real HTTP server on 127.0.0.1 (port 0) that plays scripted responses, one per request,
// in FIFO order, and records every request for assertions. Protocol-specific builders
// (openai-script.ts, anthropic-script.ts) turn a readable script into raw SSE frames.
//
// Like the real providers it checks every request body (request-rules.ts): one that breaks a
// rule is answered 400 in that provider's error shape, and the violation is kept until the
// shared afterEach (legality-setup.ts) fails the test that caused it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { protocolOfPath, refusalBody, requestViolations } from "./request-rules.js";

export interface FakeProviderOptions {
  /**
   * Why this test sends requests a real provider would refuse. When set, such a request is
   * served its script as usual and its violations stay on `RecordedRequest.violations` (and
   * `FakeProvider.violations`) for the test to assert, instead of failing the test.
   */
  allowIllegalRequests?: string;
}

/** Violations not yet reported, across every provider this test file started. */
const unreported: string[] = [];

/** Takes (and forgets) every violation not yet reported; the shared afterEach throws on them. */
export function takeUnreportedViolations(): string[] {
  return unreported.splice(0, unreported.length);
}

export type Fault =
  /** Destroy the socket as soon as the request head arrives, before any response header. */
  | { kind: "reset_before_headers" }
  /** Destroy the socket before reading the request body (a client still writing sees EPIPE/ECONNRESET). */
  | { kind: "close_during_body" }
  /** Send the first `frames` frames, then destroy the socket. */
  | { kind: "reset_after"; frames: number }
  /** Send the first `frames` frames, then keep the connection open and silent until the client leaves. */
  | { kind: "stall_after"; frames: number };

export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** A plain body (for HTTP errors). Ignored when `frames` is set. */
  body?: string;
  /** Raw SSE text, each element written as its own chunk (e.g. `data: {...}\n\n`). */
  frames?: string[];
  /** Binary frames (Bedrock's AWS event stream), used when `frames` is absent; `sent` holds them as latin1. */
  binaryFrames?: Uint8Array[];
  /** Pause between frames, in ms (default 0). */
  frameDelayMs?: number;
  /** Before sending frame N (the key), wait until its promise settles: a test acts mid-stream. */
  holds?: Map<number, Promise<unknown>>;
  fault?: Fault;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (or the raw text when it is not JSON). */
  body: any;
  rawBody: string;
  /** The SSE frames actually written to the client (a fault cuts them short): what the provider reported. */
  sent: string[];
  /** The request rules this body breaks (request-rules.ts); empty for a legal request. */
  violations: string[];
}

export class FakeProvider {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: ScriptedResponse[] = [];
  private readonly sockets = new Set<Socket>();
  private fallback: ScriptedResponse | undefined;
  private responder: ((request: RecordedRequest) => ScriptedResponse | undefined) | undefined;

  private constructor(
    private readonly server: Server,
    readonly port: number,
    private readonly options: FakeProviderOptions,
  ) {
    server.on("connection", (socket) => {
      this.sockets.add(socket);
      socket.on("close", () => this.sockets.delete(socket));
    });
  }

  static async start(options: FakeProviderOptions = {}): Promise<FakeProvider> {
    let provider: FakeProvider | undefined;
    const server = createServer((req, res) => {
      provider!.handle(req, res).catch(() => res.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    provider = new FakeProvider(server, (server.address() as AddressInfo).port, options);
    return provider;
  }

  /** Every rule broken by the requests received so far, each prefixed with its request. */
  get violations(): string[] {
    return this.requests.flatMap((request, n) => request.violations.map((v) => `request ${n + 1}: ${v}`));
  }

  /** `http://127.0.0.1:PORT` */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** `http://127.0.0.1:PORT/v1`, what tern takes as a base URL. */
  get baseUrl(): string {
    return `${this.url}/v1`;
  }

  enqueue(...responses: ScriptedResponse[]): this {
    this.queue.push(...responses);
    return this;
  }

  /** Served whenever the queue is empty (default: a 500 naming the missing script). */
  setFallback(response: ScriptedResponse | undefined): this {
    this.fallback = response;
    return this;
  }

  get pending(): number {
    return this.queue.length;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /**
   * Answers from the request itself (e.g. a summary request vs. a round); consulted before the
   * queue, which serves whenever it returns undefined. The body is read before it is asked.
   */
  setResponder(responder: ((request: RecordedRequest) => ScriptedResponse | undefined) | undefined): this {
    this.responder = responder;
    return this;
  }

  private nextScript(): ScriptedResponse {
    return (
      this.queue.shift() ??
      this.fallback ?? {
        status: 500,
        body: JSON.stringify({
          error: { message: "fake provider: no scripted response left", type: "server_error" },
        }),
      }
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.responder) {
      const recorded = await this.record(req);
      const refusal = this.check(recorded);
      if (refusal) return this.serve(req, res, refusal, recorded);
      return this.serve(req, res, this.responder(recorded) ?? this.nextScript(), recorded);
    }
    // Taken on arrival, so concurrent requests meet the queue in the order they arrived.
    const fromQueue = this.queue.length > 0;
    const script = this.nextScript();
    if (script.fault?.kind === "close_during_body") {
      this.requests.push({
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: null,
        rawBody: "",
        sent: [],
        violations: [],
      });
      req.socket.destroy();
      return;
    }
    const recorded = await this.record(req);
    const refusal = this.check(recorded);
    if (refusal) {
      // The refused request never reached the model: its script waits for the next one.
      if (fromQueue) this.queue.unshift(script);
      return this.serve(req, res, refusal, recorded);
    }
    return this.serve(req, res, script, recorded);
  }

  /** The real API's 400 for a request that breaks its rules, or undefined to serve the script. */
  private check(recorded: RecordedRequest): ScriptedResponse | undefined {
    const protocol = protocolOfPath(recorded.path);
    if (
      !protocol ||
      recorded.method !== "POST" ||
      typeof recorded.body !== "object" ||
      recorded.body === null
    )
      return undefined;
    recorded.violations = requestViolations(protocol, recorded.body);
    if (recorded.violations.length === 0 || this.options.allowIllegalRequests) return undefined;
    const n = this.requests.indexOf(recorded) + 1;
    for (const violation of recorded.violations) {
      unreported.push(`fake provider :${this.port}, request ${n} (POST ${recorded.path}): ${violation}`);
    }
    return { status: 400, body: refusalBody(protocol, recorded.violations) };
  }

  private async record(req: IncomingMessage): Promise<RecordedRequest> {
    const rawBody = await readBody(req);
    let body: any = rawBody;
    try {
      body = JSON.parse(rawBody);
    } catch {}
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body,
      rawBody,
      sent: [],
      violations: [],
    };
    this.requests.push(recorded);
    return recorded;
  }

  private async serve(
    req: IncomingMessage,
    res: ServerResponse,
    script: ScriptedResponse,
    recorded: RecordedRequest,
  ): Promise<void> {
    if (script.fault?.kind === "reset_before_headers") {
      req.socket.destroy();
      return;
    }
    const frames: (string | Uint8Array)[] | undefined = script.frames ?? script.binaryFrames;
    if (!frames) {
      res.writeHead(script.status ?? 200, { "content-type": "application/json", ...script.headers });
      res.end(script.body ?? "");
      return;
    }
    res.writeHead(script.status ?? 200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      ...script.headers,
    });
    const fault = script.fault;
    const limit = fault && "frames" in fault ? fault.frames : frames.length;
    for (let i = 0; i < Math.min(limit, frames.length); i++) {
      if (res.destroyed) return;
      const hold = script.holds?.get(i);
      if (hold) await hold;
      const frame = frames[i];
      res.write(frame);
      recorded.sent.push(typeof frame === "string" ? frame : Buffer.from(frame).toString("latin1"));
      if (script.frameDelayMs) await sleep(script.frameDelayMs);
    }
    if (fault?.kind === "reset_after") {
      // Let the written frames reach the client before the reset.
      await sleep(20);
      req.socket.destroy();
      return;
    }
    if (fault?.kind === "stall_after") {
      await new Promise<void>((resolve) => res.on("close", resolve));
      return;
    }
    res.end();
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** One SSE frame: `data: <json>\n\n` (objects are JSON-encoded, strings sent as is). */
export function sseData(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

/** One SSE frame with an event name (Anthropic style). */
export function sseEvent(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}
