// How engine events change the UI state (pure), by concern: the model's stream
// (stream-reducer.ts), tool calls (tool-reducer.ts), and here the rest of the session. Finished
// things become transcript items once; an interrupted answer stays on screen marked as such
// (R-UI-12), and the phase says what is really happening (R-UI-15).
import type { EngineEvent } from "../engine/door/events.js";
import { addCost } from "../vocab/cost.js";
import { foldChild, parentCall } from "./child-fold.js";
import { errorLine, turnLabel } from "./status-text.js";
import { commitLive, onStreamEvent, STREAM_EVENTS } from "./stream-reducer.js";
import { commitFinished, onToolEvent, TOOL_EVENTS } from "./tool-reducer.js";
import { print } from "./transcript-items.js";
import type { UiState } from "./ui-state.js";

export { commitLive } from "./stream-reducer.js";

type StreamEvent = Extract<EngineEvent, { type: (typeof STREAM_EVENTS)[number] }>;
type ToolEvent = Extract<EngineEvent, { type: (typeof TOOL_EVENTS)[number] }>;
const isStream = (event: EngineEvent): event is StreamEvent =>
  (STREAM_EVENTS as readonly string[]).includes(event.type);
const isTool = (event: EngineEvent): event is ToolEvent =>
  (TOOL_EVENTS as readonly string[]).includes(event.type);

export function onEvent(state: UiState, event: EngineEvent, now: number): UiState {
  // A sub-agent's event only folds under its task call; its turns and text are not the parent's.
  const under = parentCall(event);
  if (under !== undefined) return { ...state, running: foldChild(state.running, under, event) };
  if (isStream(event)) return onStreamEvent(state, event, now);
  if (isTool(event)) return onToolEvent(state, event, now);
  return onSessionEvent(state, event, now);
}

/** What is neither stream nor tool: usage and cost, notices, jobs, errors, the follow-up queue, the turn's end. */
function onSessionEvent(state: UiState, event: EngineEvent, now: number): UiState {
  switch (event.type) {
    case "usage":
      return {
        ...state,
        turn: state.turn && { ...state.turn, tokens: state.turn.tokens + event.completion, roundChars: 0 },
        status: {
          ...state.status,
          lastPrompt: event.prompt,
          tokens: state.status.tokens + event.prompt + event.completion,
        },
      };
    case "compaction": {
      // A /compact summary is billed like a turn (the ledger has a row for it).
      const billed =
        event.cost === undefined
          ? state
          : { ...state, status: { ...state.status, cost: addCost(state.status.cost, event.cost) } };
      // Outside a turn it is `/compact`, whose command says `compacted` once for all its stages.
      return state.turn === null
        ? billed
        : print(
            billed,
            "info",
            `compacted (${event.stage}): ${event.before_tokens} → ${event.after_tokens} tokens`,
          );
    }
    case "notice":
      return print(state, "info", `notice: ${event.text}`);
    case "lsp_diagnostics":
      return {
        ...state,
        status: { ...state.status, lspErrors: { ...state.status.lspErrors, [event.path]: event.errors } },
      };
    case "job_start":
      return { ...state, status: { ...state.status, jobs: (state.status.jobs ?? 0) + 1 } };
    case "job_end":
      // R-JOB-2: a finished job's exit is one transcript line.
      return print(
        { ...state, status: { ...state.status, jobs: Math.max(0, (state.status.jobs ?? 0) - 1) } },
        "info",
        `${event.id} exited ${event.status}${event.reason === "exited" ? "" : ` (${event.reason.replace("_", " ")})`}: ${event.command}`,
      );
    case "error":
      return print(
        state,
        "error",
        errorLine(
          event,
          state.turn?.attempt ?? 1,
          Math.round((now - (state.turn?.roundStart ?? state.turn?.start ?? now)) / 1000),
        ),
      );
    case "follow_up": {
      // The engine owns the queue (R-TURN-7); the panel draws what it published.
      const next = { ...state, queue: event.queued.map((q) => q.text), held: event.held };
      const sent = event.change === "joined" || event.change === "started";
      return sent && event.follow_up ? print(next, "user", `› ${event.follow_up.text}`) : next;
    }
    case "limit_reached":
      return print(state, "info", `limit reached: ${event.limit} (${event.used}/${event.allowed})`);
    case "turn_end": {
      const cost = state.status.cost === null || event.cost === null ? null : state.status.cost + event.cost;
      const label = turnLabel({
        turn: event.turn,
        stopReason: event.stop_reason,
        toolRounds: event.tool_rounds,
        toolCalls: event.tool_calls,
        toolErrors: event.tool_errors,
        durationMs: event.duration_ms,
        cost: event.cost,
      });
      let next = commitLive(commitFinished(state, true));
      // R-UI-12: what was on screen stays, marked; it never entered the model context.
      if (event.stop_reason === "cancelled")
        next = print(
          next,
          "interrupted",
          state.live.trim()
            ? "⏹ interrupted · the partial answer above is not part of the conversation"
            : "⏹ interrupted",
        );
      return print(
        { ...next, phase: null, running: [], turn: null, status: { ...next.status, cost } },
        "turn",
        label,
      );
    }
    default:
      return state;
  }
}
