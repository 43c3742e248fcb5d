// A turn's end: answer the calls still owed, name the last snapshot, commit `turn_end`. A disk
// that refuses one of these lines does not lose the end: the turn stops `failed` naming the disk,
// `turn_end` is still announced, and its line is written once there is room (committer.ts).
import { redactDeep } from "../../config/secrets.js";
import type { TurnOutcome } from "../door/outcome.js";
import type { TurnPorts } from "./turn-ports.js";
import type { TurnState } from "./turn-state.js";
import { internalError, stopWith, type TurnStop } from "./turn-stop.js";
import { isoTimestamp } from "../../vocab/timestamp.js";
import { elapsedMs } from "../../vocab/clock.js";

export async function endTurn(ports: TurnPorts, state: TurnState, given: TurnStop): Promise<TurnOutcome> {
  let stop = given;
  const { turn } = state;
  ports.autoContinueTurn = state.budget.autoContinue ? turn : undefined;
  ports.endYoloOnce();
  try {
    ports.quiesce(stop.reason === "cancelled" ? "cancelled" : "replied");
  } catch (err) {
    // The disk refused the answers owed to open calls: they are written with the turn's end.
    if (stop.error?.class !== "disk") {
      stop = stopWith("failed", internalError(err));
      ports.publish({ type: "error", ...stop.error! });
    }
  }
  // The turn's last snapshot is named before its turn_end, so `tern undo` right after finds it.
  await ports.checkpoints?.settle();
  const facts = {
    turn,
    stopReason: stop.reason,
    ...state.counts,
    usage: state.usage,
    ...(state.cost !== undefined ? { cost: state.cost } : {}),
    durationMs: elapsedMs(state.started),
    startedAt: isoTimestamp(state.startedAt),
    error: stop.error,
    toolRounds: state.toolRounds,
  };
  const end = ports.commitTurnEnd(facts, state.recorded);
  ports.noteTodoUse(state.usedTodoTool);
  // The outcome goes to whoever drives the session (a program using the library has no redacting
  // terminal in between), so a key the model or an error echoed is redacted as in the record.
  const outcome: TurnOutcome = {
    turn,
    stopReason: end.stopReason,
    finalText: state.finalText,
    error: end.error,
  };
  if (end.stopReason === "completed" && state.output && "value" in state.output)
    outcome.outputValue = state.output.value;
  return redactDeep(outcome);
}
