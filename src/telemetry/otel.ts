// OpenTelemetry export (R-AUTO-3) on the official JavaScript SDK, loaded only when telemetry is on.
// It listens to a session's events — the same ones `--json` prints — and turns them into metrics
// and log events over OTLP/HTTP. Exports run in the background with short timeouts: a collector
// that is down, slow or refusing costs a turn nothing, and the exit waits for it at most 2 s.
import type { Attributes } from "@opentelemetry/api";
import type { Logger } from "@opentelemetry/api-logs";
import { OTLPLogExporter as JsonLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPLogExporter as ProtoLogExporter } from "@opentelemetry/exporter-logs-otlp-proto";
import { OTLPMetricExporter as JsonMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtoMetricExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import { BatchLogRecordProcessor, LoggerProvider } from "@opentelemetry/sdk-logs";
import { MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { redactSecrets } from "../config/secrets.js";
import { registerTelemetry } from "./lifecycle.js";
import type { TelemetrySettings } from "./settings.js";

/**
 * The events telemetry reads, as the session publishes them (the `--json` contract, R-CLI-3),
 * written out here so this room stays below the engine that opens sessions and attaches it.
 */
type ObservedEvent =
  | { type: "turn_start" | "round_start" | "retry_scheduled" }
  | { type: "usage"; prompt: number; completion: number; cache_read: number; cache_write: number }
  | { type: "tool_call"; id: string; name: string }
  | { type: "approval"; id: string; decision: string }
  | { type: "tool_result"; id: string; name: string; outcome: string }
  | { type: "turn_end"; cost?: number | null; duration_ms: number; stop_reason: string };

/** What telemetry reads of a session: its events, and the prompt a turn started with. */
export interface ObservedSession {
  readonly id: string;
  /** The model in use (a `/model` switch takes effect from the next turn). */
  modelId(): string;
  subscribe(listener: (event: { type: string }) => void): () => void;
  lastPrompt(): string | undefined;
}

/** One OTLP request may not outlast the exit's 2 s. */
const EXPORT_TIMEOUT_MS = 2000;

export function attachTelemetry(settings: TelemetrySettings, session: ObservedSession): void {
  const exporters = exportersFor(settings);
  const resource = resourceFromAttributes({ "service.name": "tern" }).merge(
    detectResources({ detectors: [envDetector] }),
  );
  const meterProvider = new MeterProvider({
    resource,
    readers: [
      new PeriodicExportingMetricReader({
        exporter: exporters.metrics,
        exportIntervalMillis: Number(process.env.OTEL_METRIC_EXPORT_INTERVAL) || 60_000,
        exportTimeoutMillis: EXPORT_TIMEOUT_MS,
      }),
    ],
  });
  const loggerProvider = new LoggerProvider({
    resource,
    processors: [
      new BatchLogRecordProcessor({ exporter: exporters.logs, exportTimeoutMillis: EXPORT_TIMEOUT_MS }),
    ],
  });
  const observer = new EventObserver(meterProvider, loggerProvider.getLogger("tern"), settings, session);
  const unsubscribe = session.subscribe((event) => observer.observe(event));
  registerTelemetry({
    async shutdown() {
      unsubscribe();
      await Promise.allSettled([meterProvider.shutdown(), loggerProvider.shutdown()]);
    },
  });
}

function exportersFor(settings: TelemetrySettings) {
  const options = (signal: "metrics" | "logs") => ({
    ...(settings.endpoint ? { url: `${settings.endpoint}/v1/${signal}` } : {}),
    headers: settings.headers,
    timeoutMillis: EXPORT_TIMEOUT_MS,
  });
  return settings.protocol === "http/json"
    ? { metrics: new JsonMetricExporter(options("metrics")), logs: new JsonLogExporter(options("logs")) }
    : { metrics: new ProtoMetricExporter(options("metrics")), logs: new ProtoLogExporter(options("logs")) };
}

/** Engine events → instruments and log records, with `session.id` and `model` on every one. */
class EventObserver {
  private readonly tokens;
  private readonly cost;
  private readonly toolCalls;
  private readonly turnDuration;
  private common: Attributes;
  private readonly toolStarts = new Map<string, { name: string; at: number }>();
  private requestStart = performance.now();

  constructor(
    meters: MeterProvider,
    private readonly logger: Logger,
    private readonly settings: TelemetrySettings,
    private readonly session: ObservedSession,
  ) {
    const meter = meters.getMeter("tern");
    this.common = { "session.id": session.id, model: session.modelId() };
    meter
      .createCounter("tern.session.count", { description: "Sessions started or resumed" })
      .add(1, this.common);
    this.tokens = meter.createCounter("tern.token.usage", { description: "Tokens used", unit: "tokens" });
    this.cost = meter.createCounter("tern.cost.usage", { description: "Cost of the turns", unit: "USD" });
    this.toolCalls = meter.createCounter("tern.tool.calls", { description: "Tool calls by outcome" });
    this.turnDuration = meter.createHistogram("tern.turn.duration", {
      description: "Turn duration",
      unit: "ms",
    });
  }

  observe(published: { type: string }): void {
    const event = published as ObservedEvent;
    switch (event.type) {
      case "turn_start":
        this.common = { "session.id": this.session.id, model: this.session.modelId() };
        this.promptEvent();
        return;
      case "round_start":
      case "retry_scheduled":
        this.requestStart = performance.now();
        return;
      case "usage":
        this.usage(event);
        return;
      case "tool_call":
        this.toolStarts.set(event.id, { name: event.name, at: performance.now() });
        return;
      case "approval":
        this.emit("tern.tool_decision", {
          tool_name: this.toolStarts.get(event.id)?.name ?? "",
          decision: event.decision,
        });
        return;
      case "tool_result":
        this.toolResult(event);
        return;
      case "turn_end":
        if (typeof event.cost === "number") this.cost.add(event.cost, this.common);
        this.turnDuration.record(event.duration_ms, { ...this.common, stop_reason: event.stop_reason });
        return;
    }
  }

  private usage(event: Extract<ObservedEvent, { type: "usage" }>): void {
    const types = {
      input: event.prompt,
      output: event.completion,
      cache_read: event.cache_read,
      cache_write: event.cache_write,
    };
    for (const [type, count] of Object.entries(types))
      if (count > 0) this.tokens.add(count, { ...this.common, type });
    this.emit("tern.api_request", {
      input_tokens: event.prompt,
      output_tokens: event.completion,
      cache_read_tokens: event.cache_read,
      cache_write_tokens: event.cache_write,
      duration_ms: Math.round(performance.now() - this.requestStart),
    });
  }

  private toolResult(event: Extract<ObservedEvent, { type: "tool_result" }>): void {
    const start = this.toolStarts.get(event.id);
    this.toolStarts.delete(event.id);
    this.toolCalls.add(1, { ...this.common, tool: event.name, outcome: event.outcome });
    this.emit("tern.tool_result", {
      tool_name: event.name,
      outcome: event.outcome,
      duration_ms: start ? Math.round(performance.now() - start.at) : 0,
    });
  }

  /** The prompt's length always; its text only with `telemetry.logPrompts`, redacted as the record is. */
  private promptEvent(): void {
    const prompt = this.session.lastPrompt();
    if (prompt === undefined) return;
    const attributes: Attributes = { prompt_length: prompt.length };
    if (this.settings.logPrompts) attributes.prompt = redactSecrets(prompt);
    this.emit("tern.user_prompt", attributes);
  }

  private emit(name: string, attributes: Attributes): void {
    this.logger.emit({
      eventName: name,
      body: name,
      timestamp: Date.now(),
      attributes: { "event.name": name, ...this.common, ...attributes },
    });
  }
}
