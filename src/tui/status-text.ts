// The words of the progress row and the status line: what the phase is, how long it has run,
// how many tokens the turn has made, what it cost. Pure functions of the state and the time.
import { stripControlSequences } from "../workspace/terminal-text.js";
import type { Phase, UiState } from "./ui-state.js";
import { money } from "../vocab/cost.js";

/** How the status line shows a cost while a price is unknown (R-UI-15), never a made-up `$0.0000`. */
export const UNKNOWN_COST = "$?";

/** Whole seconds left of a retry wait, counted down by the progress row (R-RETRY-3). */
export function secondsLeft(until: number, now: number): number {
  return Math.max(0, Math.ceil((until - now) / 1000));
}

/** `12s`, `3m 04s`. */
export function elapsed(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

/** An MCP progress notification in the progress row: `3/10 indexing` (R-UI-7). */
export function progressDetail(e: { progress: number; total?: number; message?: string }): string {
  const count = e.total !== undefined ? `${e.progress}/${e.total}` : `${e.progress}`;
  return e.message ? `${count} ${stripControlSequences(e.message)}`.slice(0, 80) : count;
}

export function phaseText(phase: Phase, now: number): string {
  const since = "since" in phase && phase.since !== undefined ? ` · ${elapsed(now - phase.since)}` : "";
  switch (phase.kind) {
    case "thinking":
      return "Thinking";
    case "tool":
      return `Running ${phase.name}${phase.detail ? ` ${phase.detail}` : ""}${since}`;
    case "approval":
      return "Waiting for approval";
    case "compacting":
      return `Compacting${since}`;
    case "retry":
      return `Retrying in ${secondsLeft(phase.until, now)}s (Attempt ${phase.attempt}${phase.of ? ` of ${phase.of}` : ""})${phase.message ? ` · ${phase.message}` : ""}`;
  }
}

/** Rough output tokens of streamed text until the round's usage says exactly. */
const estimateTokens = (chars: number) => Math.ceil(chars / 4);

/** Output tokens of the running turn: exact for finished rounds, estimated for the streaming one. */
export function turnTokens(state: UiState): number {
  return state.turn ? state.turn.tokens + estimateTokens(state.turn.roundChars) : 0;
}

/**
 * The one line a turn's error leaves (R-UI-20): after retries, how many attempts over how long;
 * and that `/retry` runs the turn again (a blocked prompt would only be blocked again).
 */
export function errorLine(
  error: { class: string; status?: number; message: string },
  attempts: number,
  seconds: number,
): string {
  const what = `${error.class}${error.status !== undefined ? ` (HTTP ${error.status})` : ""}: ${error.message}`;
  const after = attempts > 1 ? `failed after ${attempts} attempts over ${seconds} s: ` : "";
  return `error: ${after}${what}${error.class === "hook" ? "" : " · /retry runs the turn again"}`;
}

/** A finished turn's label with its counts (R-UI-9), live and in a resumed session's replay alike. */
export function turnLabel(t: {
  turn: number;
  stopReason: string;
  toolRounds: number;
  toolCalls: number;
  toolErrors: number;
  durationMs: number;
  cost: number | null;
}): string {
  return (
    `— turn ${t.turn} · ${t.stopReason} · rounds=${t.toolRounds} · tools=${t.toolCalls} · ` +
    `errors=${t.toolErrors} · ${(t.durationMs / 1000).toFixed(1)}s · ${money(t.cost, UNKNOWN_COST)}`
  );
}
