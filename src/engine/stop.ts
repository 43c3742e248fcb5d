// How a turn ended, and what `tern run` exits with (R-CLI-2; the library API exports it too).
import type { StopReason } from "../record/types.js";

export interface TurnError {
  class: string;
  status?: number;
  message: string;
}

export interface TurnOutcome {
  turn: number;
  stopReason: StopReason;
  /** The final assistant text of the turn (what `tern run` prints on stdout). */
  finalText: string;
  error?: TurnError;
}

export function exitCodeFor(stop: StopReason): number {
  switch (stop) {
    case "completed":
      return 0;
    case "failed":
      return 1;
    case "cancelled":
      return 130;
    default:
      return 3;
  }
}
