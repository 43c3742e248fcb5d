// OpenTelemetry export (R-AUTO-3) through the built CLI (`tern run`, and `tern acp`, which opens
// its sessions through the same opener) against a real OTLP/HTTP receiver on 127.0.0.1: what arrives is decoded (OTLP/JSON) and read for the SPEC's metric and log names,
// with `session.id` and `model` on each; prompt text only when asked; off by default; a collector
// that is down or never answers changes neither the exit code nor the answer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { initialize, startAcp, text } from "./acp-support.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";

interface Received {
  path: string;
  contentType: string;
  body: Buffer;
}

class Receiver {
  readonly received: Received[] = [];
  private server!: Server;
  /** `hang`: accept every request and never answer (a collector that is slow to death). */
  constructor(private readonly hang = false) {}

  async start(): Promise<string> {
    this.server = createServer((req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => {
        this.received.push({
          path: req.url ?? "",
          contentType: String(req.headers["content-type"]),
          body: Buffer.concat(chunks),
        });
        if (this.hang) return;
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((done) => this.server.listen(0, "127.0.0.1", done));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    if (!this.server) return Promise.resolve();
    this.server.closeAllConnections();
    return new Promise((done) => this.server.close(() => done()));
  }

  json(path: string): any[] {
    return this.received.filter((r) => r.path === path).map((r) => JSON.parse(r.body.toString("utf8")));
  }
}

const e = useE2E();
let receiver: Receiver;
beforeEach(() => {
  receiver = new Receiver();
});
afterEach(() => receiver.close());

const attrs = (list: { key: string; value: Record<string, unknown> }[]): Record<string, any> =>
  Object.fromEntries(list.map((a) => [a.key, Object.values(a.value)[0]]));

function metricsByName(bodies: any[]): Map<string, any[]> {
  const out = new Map<string, any[]>();
  for (const body of bodies)
    for (const rm of body.resourceMetrics)
      for (const sm of rm.scopeMetrics)
        for (const metric of sm.metrics) {
          const points = metric.sum?.dataPoints ?? metric.histogram?.dataPoints ?? [];
          out.set(metric.name, [...(out.get(metric.name) ?? []), ...points]);
        }
  return out;
}

function logRecords(bodies: any[]): Record<string, unknown>[] {
  return bodies.flatMap((body) =>
    body.resourceLogs.flatMap((rl: any) =>
      rl.scopeLogs.flatMap((sl: any) => sl.logRecords.map((r: any) => attrs(r.attributes))),
    ),
  );
}

function scriptTurn(): void {
  writeUserConfig(e, { models: { "openai/mock-1": { pricing: { input: 1, output: 2 } } } });
  e.provider.enqueue(
    openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo hi" } }], {
      prompt_tokens: 1000,
      completion_tokens: 100,
    }),
    openaiText("done", { prompt_tokens: 1200, completion_tokens: 50 }),
  );
}

describe("OpenTelemetry export", () => {
  it("sends the SPEC's metrics and log events over OTLP/JSON, each with session.id and model", async () => {
    const endpoint = await receiver.start();
    scriptTurn();
    const run = await ternRun(e, ["--yes"], "say hi secretly", {
      env: {
        TERN_ENABLE_TELEMETRY: "1",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      },
    });
    expect(run.code, run.stderr).toBe(0);
    const sessionId = run.events.find((ev) => ev.type === "session").id;
    const metrics = metricsByName(receiver.json("/v1/metrics"));
    for (const name of [
      "tern.session.count",
      "tern.token.usage",
      "tern.cost.usage",
      "tern.tool.calls",
      "tern.turn.duration",
    ])
      expect([...metrics.keys()]).toContain(name);
    const tokens: Record<string, any>[] = metrics
      .get("tern.token.usage")!
      .map((p) => ({ ...attrs(p.attributes), value: Number(p.asInt ?? p.asDouble) }));
    expect(tokens.find((t) => t.type === "input")).toMatchObject({
      value: 2200,
      "session.id": sessionId,
      model: "openai/mock-1",
    });
    expect(tokens.find((t) => t.type === "output")?.value).toBe(150);
    const cost = metrics.get("tern.cost.usage")![0];
    expect(cost.asDouble).toBeCloseTo(0.0025, 6);
    expect(attrs(metrics.get("tern.tool.calls")![0].attributes)).toMatchObject({
      tool: "bash",
      outcome: "ok",
    });
    expect(attrs(metrics.get("tern.turn.duration")![0].attributes)).toMatchObject({
      stop_reason: "completed",
    });

    const logs = logRecords(receiver.json("/v1/logs"));
    const names = logs.map((l) => l["event.name"]);
    expect(names.filter((n) => n === "tern.api_request")).toHaveLength(2);
    expect(names).toContain("tern.tool_result");
    expect(names).toContain("tern.user_prompt");
    for (const log of logs) expect(log).toMatchObject({ "session.id": sessionId, model: "openai/mock-1" });
    const prompt = logs.find((l) => l["event.name"] === "tern.user_prompt")!;
    expect(Number(prompt.prompt_length)).toBe("say hi secretly".length);
    expect(prompt.prompt).toBeUndefined();
    expect(logs.find((l) => l["event.name"] === "tern.api_request")).toMatchObject({ input_tokens: 1000 });
  });

  it("prompt text with telemetry.logPrompts; http/protobuf by default", async () => {
    const endpoint = await receiver.start();
    writeUserConfig(e, { telemetry: { enabled: true, endpoint, logPrompts: true } });
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "the prompt text");
    expect(run.code, run.stderr).toBe(0);
    const logs = receiver.received.filter((r) => r.path === "/v1/logs");
    expect(logs.length).toBeGreaterThan(0);
    expect(logs[0].contentType).toBe("application/x-protobuf");
    // Protobuf carries strings as UTF-8 bytes: the names and the prompt are in the body.
    const body = Buffer.concat(logs.map((l) => l.body)).toString("utf8");
    expect(body).toContain("tern.user_prompt");
    expect(body).toContain("the prompt text");
    const metrics = Buffer.concat(
      receiver.received.filter((r) => r.path === "/v1/metrics").map((r) => r.body),
    );
    expect(metrics.toString("utf8")).toContain("tern.session.count");
  });

  it("is off by default: the OTLP variables alone send nothing", async () => {
    const endpoint = await receiver.start();
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "x", { env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint } });
    expect(run.code).toBe(0);
    expect(receiver.received).toHaveLength(0);
  });

  it("a collector that is down, or never answers, changes neither the answer nor the exit code", async () => {
    const hanging = new Receiver(true);
    const slowEndpoint = await hanging.start();
    try {
      for (const endpoint of ["http://127.0.0.1:9", slowEndpoint]) {
        e.provider.enqueue(openaiText("still answered"));
        const run = await ternRun(e, [], "x", {
          env: { TERN_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: endpoint },
          timeoutMs: 15_000,
        });
        expect(run.code, `${endpoint}: ${run.stderr}`).toBe(0);
        expect(run.end.stop_reason).toBe("completed");
      }
      expect(hanging.received.length).toBeGreaterThan(0);
    } finally {
      await hanging.close();
    }
  });

  it("an untrusted workspace cannot switch telemetry on or point it elsewhere", async () => {
    const endpoint = await receiver.start();
    const { mkdirSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    mkdirSync(join(e.dirs.workspace, ".tern"), { recursive: true });
    writeFileSync(
      join(e.dirs.workspace, ".tern", "config.json"),
      JSON.stringify({ telemetry: { enabled: true, endpoint } }),
    );
    e.provider.enqueue(openaiText("ok"));
    const run = await ternRun(e, [], "x");
    expect(run.code).toBe(0);
    expect(run.events.some((ev) => ev.type === "notice" && /telemetry ignored/.test(ev.text))).toBe(true);
    expect(receiver.received).toHaveLength(0);
  });
});

describe("OpenTelemetry export from `tern acp`", () => {
  it("exports what `tern run` exports: the session, its token usage and its API requests", async () => {
    const endpoint = await receiver.start();
    writeUserConfig(e, { models: { "openai/mock-1": { pricing: { input: 1, output: 2 } } } });
    e.provider.enqueue(openaiText("done", { prompt_tokens: 1000, completion_tokens: 100 }));
    const client = startAcp({
      home: e.dirs.home,
      baseUrl: e.provider.baseUrl,
      env: {
        TERN_ENABLE_TELEMETRY: "1",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      },
    });
    await initialize(client);
    const { sessionId } = await client.agent.request("session/new", {
      cwd: e.dirs.workspace,
      mcpServers: [],
    });
    const answer = await client.agent.request("session/prompt", { sessionId, prompt: [text("hi there")] });
    expect(answer.stopReason).toBe("end_turn");
    // The agent exits when its client closes stdin; the exporters flush before it does.
    expect(await client.close(), client.stderr()).toBe(0);

    const metrics = metricsByName(receiver.json("/v1/metrics"));
    for (const name of ["tern.session.count", "tern.token.usage", "tern.cost.usage", "tern.turn.duration"])
      expect([...metrics.keys()]).toContain(name);
    const tokens: Record<string, any>[] = metrics
      .get("tern.token.usage")!
      .map((p) => ({ ...attrs(p.attributes), value: Number(p.asInt ?? p.asDouble) }));
    expect(tokens.find((t) => t.type === "input")).toMatchObject({
      value: 1000,
      "session.id": sessionId,
      model: "openai/mock-1",
    });
    expect(tokens.find((t) => t.type === "output")?.value).toBe(100);
    const logs = logRecords(receiver.json("/v1/logs"));
    const request = logs.find((l) => l["event.name"] === "tern.api_request");
    expect(request).toMatchObject({ "session.id": sessionId, input_tokens: 1000, output_tokens: 100 });
    expect(logs.find((l) => l["event.name"] === "tern.user_prompt")).toMatchObject({
      prompt_length: "hi there".length,
    });
  });
});
