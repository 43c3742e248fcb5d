// One stderr line per interesting event for headless runs without --json.
import type { EngineEvent } from "../engine/door/events.js";
import { stripControlSequences } from "../workspace/terminal-text.js";

const MAX_ARGS = 200;

/** The progress line for an event, with control sequences from outside removed (SPEC §10). */
export function describeProgress(event: EngineEvent): string | undefined {
  const line = progressLine(event);
  if (line === undefined) return undefined;
  // A sub-agent's event (R-AGENT-1) says whose it is.
  const agent = (event as { agent?: string }).agent;
  return stripControlSequences(agent ? `[${agent}] ${line}` : line);
}

function progressLine(event: EngineEvent): string | undefined {
  switch (event.type) {
    case "tool_call":
      return `→ ${event.name} ${clip(event.arguments, MAX_ARGS)}`;
    case "tool_result":
      return event.outcome === "ok"
        ? undefined
        : `  ${event.name} ${event.outcome}: ${clip(firstLine(event.content), MAX_ARGS)}`;
    case "tool_progress":
      return `  ${event.name} ${event.total !== undefined ? `${event.progress}/${event.total}` : event.progress}${event.message ? ` ${clip(event.message, MAX_ARGS)}` : ""}`;
    case "retry_scheduled":
      return `retrying model request: ${event.message} (attempt ${event.attempt}, in ${formatDelay(event.delay_ms)})`;
    case "notice":
      return `notice: ${event.text}`;
    case "hosted_tool":
      return event.status === "done"
        ? `⌕ ${event.name} (run by the provider)${event.detail ? ` ${JSON.stringify(event.detail)}` : ""}`
        : undefined;
    case "error":
      // Class and status say at a glance whether it was the key, the quota or the server.
      return `error: ${event.class}${event.status !== undefined ? ` (HTTP ${event.status})` : ""}: ${event.message}`;
    case "limit_reached":
      return `limit reached: ${event.limit} (${event.used}/${event.allowed})`;
    case "turn_end":
      return event.stop_reason === "completed"
        ? undefined
        : `turn ${event.turn} stopped: ${event.stop_reason}`;
    default:
      return undefined;
  }
}

/** Short waits (tests, retry-after-ms) in ms, so "in 0s" never hides a real wait. */
function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${Math.round(ms / 100) / 10}s`;
}

function firstLine(text: string): string {
  const i = text.indexOf("\n");
  return i === -1 ? text : text.slice(0, i);
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
