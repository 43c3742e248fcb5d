// How a turn ended, as the front ends and the library API see it (`tern run` maps it to its exit
// code in cli/exit-codes.ts).
import type { StopReason } from "../../record/types.js";

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
  /** `--output-schema` (R-AUTO-1): the answer's JSON value, once it was valid. */
  outputValue?: unknown;
}
