// The streaming answer, committed to the scrollback piece by piece as pieces complete (where
// stream-cuts.ts says), and the rest at once when the stream stops.
import { streamCut } from "./stream-cuts.js";
import { print } from "./transcript-items.js";
import type { UiState } from "./ui-state.js";

/** Commits the part of the live stream that is complete markdown blocks (stream-cuts.ts). */
export function flushBlocks(state: UiState): UiState {
  const rest = state.live.slice(state.flushed);
  const { cut, joined, numbered } = streamCut(rest);
  if (cut === 0) return state;
  const block = rest.slice(0, cut).replace(/\s+$/, "");
  // A numbered list numbers on from its first item: the next piece's first number.
  const from =
    numbered?.fromStart && state.joinNext?.number !== undefined ? state.joinNext.number : numbered?.start;
  const joinNext = joined
    ? { number: from === undefined ? undefined : from + (numbered?.items ?? 0) }
    : undefined;
  const next = { ...state, flushed: state.flushed + cut, joinNext };
  return block ? printPiece(next, block, state.joinNext) : next;
}

/** A piece of the answer; one that continues the list above it gets no blank row, and its number. */
export function printPiece(state: UiState, text: string, join: UiState["joinNext"]): UiState {
  if (!join) return print(state, "assistant", text);
  const numbered = join.number === undefined ? text : text.replace(/^\d{1,9}(?=[.)])/, String(join.number));
  const next = print(state, "assistant", numbered);
  return {
    ...next,
    items: [...next.items.slice(0, -1), { ...next.items[next.items.length - 1], joined: true }],
  };
}

/** The live text not yet committed, committed now (an interrupted or abandoned stream). */
export function commitLive(state: UiState): UiState {
  const rest = state.live.slice(state.flushed).replace(/\s+$/, "");
  const next = { ...state, live: "", flushed: 0, joinNext: undefined };
  return rest.trim() ? printPiece(next, rest, state.joinNext) : next;
}
