// How a turn ended, as the front ends and the library API see it (`tern run` maps it to its exit
// code in cli/exit-codes.ts).
import type { ProviderErrorClass } from "../../provider/errors.js";
import type { StopReason } from "../../record/types.js";

/**
 * Why a `failed` (or `context_overflow`) turn failed: a provider's classified error, a finish
 * reason tern cannot continue from, an answer that broke `--output-schema` (`output_invalid`), a
 * prompt a UserPromptSubmit hook blocked (`hook`), a full or failing disk (`disk`), or a bug
 * (`internal`).
 */
export type TurnErrorClass =
  | ProviderErrorClass
  | "finish_reason"
  | "output_invalid"
  | "hook"
  | "disk"
  | "internal";

export interface TurnError {
  class: TurnErrorClass;
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
