// The face of telemetry/: the settings are read on every start, the OpenTelemetry SDK (otel.ts)
// loads only when telemetry is on (R-AUTO-3).
export { telemetrySettings } from "./settings.js";
export const loadTelemetry = () => import("./otel.js");
