// The phase machine of R-REC-2. `admissible` is the ONE rule shared by the live
// engine and by replay, so what a live door accepts and what a replayed record admits cannot drift.
import type { Phase, RecordLine, RecordType } from "./types.js";

/** Whether a record of this type may be committed in this phase (call ids are checked by RecordFold.check). */
export function admissible(type: RecordType, phase: Phase): boolean {
  switch (type) {
    // Only outstanding tool calls hold the record: a dangling tool-call block is not a legal request.
    case "user_prompt":
    case "notice":
    case "turn_end":
    case "cleared":
    case "rewound":
    case "undo":
    case "redo":
      return phase !== "AwaitingToolResults";
    case "assistant_message":
      return phase === "AwaitingAssistantAfterUser" || phase === "AwaitingAssistantAfterToolResults";
    case "tool_start":
    case "tool_result":
      return phase === "AwaitingToolResults";
    case "session_start":
      return phase === "ReadyForUser";
    case "context":
    case "config":
    case "compaction":
    case "checkpoint":
    case "job_start":
    case "job_end":
    case "hook":
      return true;
    default:
      return false;
  }
}

/** A fresh prompt is admissible (weaker than ReadyForUser: an unanswered exchange may be abandoned). */
export function isReady(phase: Phase): boolean {
  return admissible("user_prompt", phase);
}

/**
 * The phase once `line` is applied (`openCalls`: tool calls still without a result after it).
 * Beside `admissible`, so the rule that admits a line and the phase it leads to read together.
 */
export function phaseAfter(line: RecordLine, phase: Phase, openCalls: number): Phase {
  switch (line.type) {
    case "user_prompt":
    case "notice":
      return "AwaitingAssistantAfterUser";
    case "assistant_message":
      return openCalls > 0 ? "AwaitingToolResults" : "ReadyForUser";
    case "tool_result":
      return openCalls === 0 ? "AwaitingAssistantAfterToolResults" : phase;
    case "undo":
    case "redo":
      // The files only (or its redo): the conversation, and so its phase, stays as it was.
      return line.filesOnly ? phase : "ReadyForUser";
    case "cleared":
    case "rewound":
      return "ReadyForUser";
    default:
      // turn_end leaves it as it is: an unanswered prompt stays answerable, so /retry continues.
      return phase;
  }
}
