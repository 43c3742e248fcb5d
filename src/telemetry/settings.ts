// Whether and where telemetry goes (R-AUTO-3), read from the config and the standard OpenTelemetry
// variables without loading the SDK: a run with telemetry off pays for this file only.
import type { Config } from "../config/types.js";

export type OtlpProtocol = "http/protobuf" | "http/json";

export interface TelemetrySettings {
  /** Base URL; the signal paths (`/v1/metrics`, `/v1/logs`) are added. Absent = the SDK's env/default. */
  endpoint?: string;
  headers: Record<string, string>;
  protocol: OtlpProtocol;
  logPrompts: boolean;
  /** Said once on stderr (e.g. an unsupported protocol). */
  notices: string[];
}

const ON = /^(1|true|yes|on)$/i;

/** Undefined when telemetry is off: `telemetry.enabled` or `TERN_ENABLE_TELEMETRY=1` turns it on. */
export function telemetrySettings(config: Config, env: NodeJS.ProcessEnv): TelemetrySettings | undefined {
  const own = config.telemetry ?? {};
  const enabled =
    env.TERN_ENABLE_TELEMETRY !== undefined ? ON.test(env.TERN_ENABLE_TELEMETRY) : own.enabled === true;
  if (!enabled) return undefined;
  const notices: string[] = [];
  const asked = own.protocol ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? "http/protobuf";
  let protocol: OtlpProtocol = "http/protobuf";
  if (asked === "http/json" || asked === "http/protobuf") protocol = asked;
  else
    notices.push(
      `telemetry: OTLP protocol "${asked}" is not supported (http/protobuf or http/json); using http/protobuf`,
    );
  const settings: TelemetrySettings = {
    headers: { ...(own.headers ?? {}) },
    protocol,
    logPrompts: own.logPrompts === true || ON.test(env.TERN_TELEMETRY_LOG_PROMPTS ?? ""),
    notices,
  };
  if (own.endpoint) settings.endpoint = own.endpoint.replace(/\/+$/, "");
  return settings;
}
