// What one run of a turn carries from its start to its end (turn-loop.ts runs it, turn-end.ts ends it).
import type { OutputState } from "./output-contract.js";
import type { AdmitState } from "./turn-admit.js";
import type { TurnStop } from "./turn-stop.js";
import type { Usage } from "../../vocab/usage.js";

/** What one run of a turn has counted so far. */
export interface TurnState extends AdmitState {
  turn: number;
  startedAt: Date;
  /** monotonicMs() at the start: what the duration and the duration budget are measured from. */
  started: number;
  // This run's counts: a `/retry` writes another turn_end for the same turn, and the ledger adds
  // the runs up (R-REC-8), so each run counts only its own requests.
  counts: { rounds: number; modelCalls: number; toolCalls: number; toolErrors: number };
  usage: Usage;
  finalText: string;
  /** Rounds whose answer asked for tools (admitted or not): the UI's `rounds=N` (R-UI-9). */
  toolRounds: number;
  /** The last round's answer was cut off (or paused) and the next round continues it. */
  continuing: boolean;
  usedTodoTool: boolean;
  overflowCompacted: boolean;
  /** USD of this run's requests, each priced alone (null = unknown); absent = not priced here. */
  cost?: number | null;
  /** The spending cap's "cannot be enforced" notice was given (R-PROV-17). */
  costCapUnenforced?: boolean;
  /** Rounds a Stop hook added in a row. */
  stopContinues: number;
  /** `--output-schema`: the contract, its corrective rounds so far, the valid value once seen. */
  output?: OutputState;
  /** The turn's prompt is in the record (a `/retry` continues one that is). */
  recorded: boolean;
  /** The disk refused the prompt: the turn stops before its first round. */
  startFailure?: TurnStop;
}
