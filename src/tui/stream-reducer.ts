// How the model's stream changes the UI state (pure): turns and rounds begin, reasoning and
// answer text stream, and the live stream is committed piece by piece as pieces complete (R-UI-13,
// stream-cuts.ts); a retry leaves one line (R-UI-20). Part of event-reducer.ts's `onEvent`.
import type { EngineEvent } from "../engine/door/events.js";
import { stripControlSequences } from "../workspace/terminal-text.js";
import { streamCut } from "./stream-cuts.js";
import { print } from "./transcript-items.js";
import type { Phase, UiState } from "./ui-state.js";

export const STREAM_EVENTS = [
  "turn_start",
  "round_start",
  "reasoning_delta",
  "text_delta",
  "stream_discarded",
  "assistant_message",
  "retry_scheduled",
] as const;

/** Commits the part of the live stream that is complete markdown blocks (stream-cuts.ts). */
function flushBlocks(state: UiState): UiState {
  const rest = state.live.slice(state.flushed);
  const { cut, joined, numbered } = streamCut(rest);
  if (cut === 0) return state;
  const block = rest.slice(0, cut).replace(/\s+$/, "");
  // A numbered list numbers on from its first item (or from the piece before's, which it continues).
  const continued = numbered?.fromStart ? state.joinNext?.number : undefined;
  const number = numbered && (continued ?? numbered.start) + numbered.items;
  const joinNext = joined ? { number } : undefined;
  const next = { ...state, flushed: state.flushed + cut, joinNext };
  return block ? printPiece(next, block, state.joinNext) : next;
}

/** A piece of the answer; one that continues the list above it gets no blank row, and its number. */
function printPiece(state: UiState, text: string, join: UiState["joinNext"]): UiState {
  if (!join) return print(state, "assistant", text);
  const numbered = join.number === undefined ? text : text.replace(/^\d{1,9}(?=[.)])/, String(join.number));
  return print(state, "assistant", numbered, { joined: true });
}

/** The live text not yet committed, committed now (an interrupted or abandoned stream). */
export function commitLive(state: UiState): UiState {
  const rest = state.live.slice(state.flushed).replace(/\s+$/, "");
  const next = { ...state, live: "", flushed: 0, joinNext: undefined };
  return rest.trim() ? printPiece(next, rest, state.joinNext) : next;
}

/** A stream event (`STREAM_EVENTS`) applied to the UI state. */
export function onStreamEvent(
  state: UiState,
  event: Extract<
    EngineEvent,
    {
      type:
        | "turn_start"
        | "round_start"
        | "reasoning_delta"
        | "text_delta"
        | "stream_discarded"
        | "assistant_message"
        | "retry_scheduled";
    }
  >,
  now: number,
): UiState {
  switch (event.type) {
    case "turn_start":
      return {
        ...state,
        running: [],
        phase: { kind: "thinking", since: now },
        turn: { start: now, tokens: 0, roundChars: 0 },
      };
    case "round_start":
      return {
        ...state,
        phase: { kind: "thinking", since: now },
        turn: state.turn && { ...state.turn, roundStart: now, attempt: 1 },
      };
    case "reasoning_delta": {
      const counted = state.turn
        ? { ...state, turn: { ...state.turn, roundChars: state.turn.roundChars + event.text.length } }
        : state;
      // Once the answer streams, the reasoning is collapsed: late reasoning stays hidden too.
      return state.live === ""
        ? { ...counted, liveReasoning: state.liveReasoning + stripControlSequences(event.text) }
        : counted;
    }
    case "text_delta": {
      const next = {
        ...state,
        live: state.live + stripControlSequences(event.text),
        liveReasoning: "",
        phase: state.phase?.kind === "retry" ? ({ kind: "thinking", since: now } as Phase) : state.phase,
        turn: state.turn && { ...state.turn, roundChars: state.turn.roundChars + event.text.length },
      };
      // Only a new line can complete a block.
      return event.text.includes("\n") ? flushBlocks(next) : next;
    }
    case "stream_discarded": {
      const next = { ...state, live: "", liveReasoning: "", flushed: 0, joinNext: undefined };
      // Blocks already in the scrollback cannot be taken back: say the answer restarts.
      return state.flushed > 0
        ? print(next, "info", "(the answer above was cut off; the model is answering again)")
        : next;
    }
    case "assistant_message": {
      const shown = state.live.slice(0, state.flushed);
      // Compared with the live text, which was stripped the same way as it streamed.
      const text = stripControlSequences(event.text);
      const rest = (text.startsWith(shown) ? text.slice(state.flushed) : text).replace(/\s+$/, "");
      const next = {
        ...state,
        live: "",
        liveReasoning: "",
        flushed: 0,
        joinNext: undefined,
      };
      if (rest.trim()) return printPiece(next, rest.replace(/^\n+/, ""), state.joinNext);
      // An answer of nothing (or only whitespace) says so rather than showing nothing (R-UI-22).
      return !text.trim() && event.tool_calls.length === 0 ? print(next, "info", "(empty answer)") : next;
    }
    case "retry_scheduled":
      // The countdown lives in the progress row; each retry also leaves one line (R-UI-20).
      return print(
        {
          ...state,
          phase: {
            kind: "retry",
            attempt: event.attempt,
            of: state.status.maxAttempts,
            until: now + event.delay_ms,
            message: event.message,
          },
          turn: state.turn && { ...state.turn, attempt: event.attempt },
        },
        "retry",
        `retrying model request: ${event.message}`,
      );
  }
}
