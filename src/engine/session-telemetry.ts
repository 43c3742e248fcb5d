// Telemetry (R-AUTO-3) is attached where every session opens (open-session.ts), so the terminal
// UI, `--plain`, `tern run`, `tern acp` and the library export alike. The SDK loads only when the
// config or TERN_ENABLE_TELEMETRY turns it on; a sub-agent's session is the parent's to report.
import type { Config } from "../config/types.js";
import { loadTelemetry, telemetrySettings } from "../telemetry/index.js";
import type { ObservedSession } from "../telemetry/otel.js";
import type { Session } from "./session.js";

/** Attaches the exporters to `session` when telemetry is on; its notices join `warnings`. */
export async function attachSessionTelemetry(
  session: Session,
  config: Config,
  env: NodeJS.ProcessEnv,
  warnings: string[],
): Promise<void> {
  const settings = telemetrySettings(config, env);
  if (!settings) return;
  warnings.push(...settings.notices);
  const { attachTelemetry } = await loadTelemetry();
  attachTelemetry(settings, observed(session));
}

/** What telemetry reads of a session: its events and, at a turn's start, the prompt's text. */
function observed(session: Session): ObservedSession {
  return {
    id: session.id,
    modelId: () => session.status().model.id,
    subscribe: (listener) => session.subscribe(listener),
    lastPrompt() {
      const lines = session.transcript();
      for (let i = lines.length - 1; i >= 0; i--) {
        const line = lines[i];
        if (line.type === "user_prompt")
          return line.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
      }
      return undefined;
    },
  };
}
