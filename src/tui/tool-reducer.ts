// How tool calls change the UI state (pure): they are kept structured for their readable lines
// (R-UI-11), their live tails shown (R-UI-18), and their results drawn in the batch's call order
// (R-UI-19). Part of event-reducer.ts's `onEvent`.
import type { EngineEvent } from "../engine/door/events.js";
import { liveTail } from "./output-view.js";
import { progressDetail } from "./status-text.js";
import type { ToolRun } from "./tool-view.js";
import { hostedToolLine, print } from "./transcript-items.js";
import type { Phase, UiState } from "./ui-state.js";

export const TOOL_EVENTS = [
  "tool_call",
  "hosted_tool",
  "approval",
  "tool_progress",
  "tool_output",
  "tool_result",
] as const;

/** What the phase is once no prompt is up: a running tool, else waiting for the model. */
function settledPhase(state: UiState, now: number): Phase {
  const next = state.running.find((r) => r.outcome === undefined);
  return next ? { kind: "tool", name: next.name, since: now } : { kind: "thinking", since: now };
}

/** Finished calls at the head of the batch go to the transcript, in call order; `all`: every finished one. */
export function commitFinished(state: UiState, all = false): UiState {
  let next = state;
  const waiting: ToolRun[] = [];
  for (const run of state.running) {
    if (run.outcome !== undefined && (waiting.length === 0 || all))
      next = print(next, "tool", `${run.name} ${run.outcome}`, { tool: run });
    else waiting.push(run);
  }
  return { ...next, running: waiting };
}

/** A tool event (`TOOL_EVENTS`) applied to the UI state. */
export function onToolEvent(
  state: UiState,
  event: Extract<
    EngineEvent,
    { type: "tool_call" | "hosted_tool" | "approval" | "tool_progress" | "tool_output" | "tool_result" }
  >,
  now: number,
): UiState {
  switch (event.type) {
    case "tool_call": {
      const running = [
        ...state.running,
        {
          id: event.id,
          name: event.name,
          arguments: event.arguments,
          presentation: event.presentation,
          started: now,
        },
      ];
      const phase: Phase = state.approval
        ? (state.phase as Phase)
        : { kind: "tool", name: running[0].name, since: now };
      return { ...state, running, phase };
    }
    case "hosted_tool":
      return event.status === "done" ? print(state, "tool", hostedToolLine(event)) : state;
    case "approval":
      // An approved call starts to run now: its time waiting for the person is not its duration.
      return {
        ...state,
        running: state.running.map((r) =>
          r.id === event.id && event.decision === "approved" ? { ...r, started: now } : r,
        ),
      };
    case "tool_progress": {
      const since = state.phase?.kind === "tool" ? state.phase.since : now;
      return { ...state, phase: { kind: "tool", name: event.name, since, detail: progressDetail(event) } };
    }
    case "tool_output":
      // The live tail of a running call (R-UI-18): the engine already sends it at most ~10 times a second.
      return {
        ...state,
        running: state.running.map((r) =>
          r.id === event.id && r.outcome === undefined
            ? { ...r, live: { tail: liveTail(event.tail), lines: event.lines } }
            : r,
        ),
      };
    case "tool_result": {
      const known = state.running.find((r) => r.id === event.id);
      const call: ToolRun = known ?? {
        id: event.id,
        name: event.name,
        arguments: "{}",
        presentation: { title: "", kind: "other", locations: [] },
      };
      const run: ToolRun = {
        ...call,
        outcome: event.outcome,
        content: event.content,
        // A denied call never ran: it has no duration.
        ...(call.started !== undefined && event.outcome !== "denied" ? { ms: now - call.started } : {}),
      };
      // R-UI-19: results are drawn in the batch's call order (the order the approval listed):
      // a call that finished before an earlier one waits in the live region until that one is done.
      const running = known ? state.running.map((r) => (r.id === event.id ? run : r)) : state.running;
      const next = known
        ? commitFinished({ ...state, running })
        : print(state, "tool", `${event.name} ${event.outcome}`, { tool: run });
      return { ...next, phase: state.approval ? state.phase : settledPhase(next, now) };
    }
  }
}
