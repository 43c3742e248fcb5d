// A child's turn as the parent's `task` result (R-AGENT-1): its final answer, and one line naming
// the child's session (to resume or export it). A child that failed, hit its budget or was
// cancelled is an error result saying so, with what it answered before: the parent's turn goes on.
import type { ToolResult } from "../../tools/types.js";
import type { TurnOutcome } from "../door/outcome.js";

const LIMITS: Record<string, string> = {
  model_call_limit_reached: "its model-call budget (agents.executionBudget.maximumModelCalls)",
  tool_call_limit_reached: "its tool-call budget (agents.executionBudget.maximumToolCalls)",
  duration_limit_reached: "its time budget (agents.executionBudget.maximumDurationSeconds)",
  cost_limit_reached: "its spending cap (agents.executionBudget.maximumCostUsd)",
};

export function taskResult(agent: string, session: string, outcome: TurnOutcome): ToolResult {
  const footer = `[sub-agent '${agent}', session ${session}]`;
  const text = outcome.finalText.trim();
  const so = text ? `\nIts last answer:\n${text}` : "";
  const error = (what: string): ToolResult => ({
    outcome: "error",
    content: [{ type: "text", text: `task: sub-agent '${agent}' ${what}.${so}\n\n${footer}` }],
  });
  switch (outcome.stopReason) {
    case "completed":
      return {
        outcome: "ok",
        content: [{ type: "text", text: `${text || "(the sub-agent gave no answer)"}\n\n${footer}` }],
      };
    case "cancelled":
      return error("was cancelled");
    case "failed":
      return error(`failed: ${outcome.error?.message ?? "unknown error"}`);
    default:
      return error(
        `stopped (${outcome.stopReason})${LIMITS[outcome.stopReason] ? `: it reached ${LIMITS[outcome.stopReason]}` : ""}`,
      );
  }
}
