// tern's words as ACP's: the permission modes a client may switch between, and a turn's stop reason.
import type * as acp from "@agentclientprotocol/sdk";
import type { TurnOutcome } from "../engine/door/outcome.js";

type StopReason = TurnOutcome["stopReason"];

export const MODES: acp.SessionMode[] = [
  { id: "ask", name: "Ask", description: "ask before edits, commands and fetches" },
  { id: "auto-edit", name: "Auto-edit", description: "edit files without asking; ask before commands" },
  { id: "yolo", name: "Yolo", description: "approve every tool call (deny rules still apply)" },
  { id: "plan", name: "Plan", description: "read and plan only: no edits; bash in the read-only sandbox" },
];

/** tern's stop reasons in ACP's words; `failed` is answered as an error instead. */
export function acpStopReason(stop: StopReason): acp.StopReason {
  switch (stop) {
    case "completed":
      return "end_turn";
    case "output_truncated":
    case "context_overflow":
      return "max_tokens";
    case "content_filtered":
      return "refusal";
    case "tool_call_limit_reached":
    case "model_call_limit_reached":
    case "duration_limit_reached":
    case "cost_limit_reached":
      return "max_turn_requests";
    default:
      return "cancelled";
  }
}
