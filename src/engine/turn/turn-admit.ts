// Which calls a round's answer may run, and the stop its finish reason or the tool budget calls
// for: a cut reply continues up to `maxTruncationContinues` times, a filtered one stops, a pause
// continues up to MAX_PAUSES times in a row, and any other finish fails the turn.
import type { StreamResult } from "../../provider/types.js";
import type { ToolCall } from "../../vocab/messages.js";
import type { TurnBudget } from "./budget.js";
import { uniqueCallIds } from "./call-ids.js";
import { MAX_PAUSES, PAUSED } from "./turn-continue.js";
import type { TurnPorts } from "./turn-ports.js";
import { stopWith, type TurnStop } from "./turn-stop.js";

/** The part of a turn's state the finish handling reads and counts. */
export interface AdmitState {
  budget: TurnBudget;
  truncationContinues: number;
  /** Rounds in a row the provider paused (`pause_turn`). */
  pauses: number;
}

/** The calls a round's answer may run, and the stop its finish or the tool budget calls for. */
export async function admitCalls(
  ports: Pick<TurnPorts, "maxTruncationContinues" | "publish">,
  state: AdmitState,
  result: StreamResult,
): Promise<{ calls: ToolCall[]; stop?: TurnStop }> {
  switch (result.finish) {
    case "length":
      return state.truncationContinues >= ports.maxTruncationContinues
        ? { calls: [], stop: stopWith("output_truncated") }
        : { calls: [] };
    case "content_filter":
      return { calls: [], stop: stopWith("content_filtered") };
    case "stop":
    case "tool_calls":
      break;
    case PAUSED:
      if (++state.pauses <= MAX_PAUSES) return { calls: [] };
      return {
        calls: [],
        stop: stopWith("failed", {
          class: "finish_reason",
          message: `Model stopped with finish reason 'pause_turn' ${MAX_PAUSES + 1} times in a row`,
        }),
      };
    default: {
      const message = `Model stopped with finish reason '${result.rawFinish ?? result.finish}'`;
      return { calls: [], stop: stopWith("failed", { class: "finish_reason", message }) };
    }
  }
  const calls = uniqueCallIds(result.toolCalls);
  if (calls.length === 0) return { calls };
  const fits = await state.budget.allowBatch(calls.length, (used, allowed) =>
    ports.publish({ type: "limit_reached", limit: "tool_calls", used, allowed }),
  );
  return fits ? { calls } : { calls: [], stop: stopWith("tool_call_limit_reached") };
}
