// Claude's stop reasons as Anthropic's Messages API and Bedrock's Converse both name them; each
// wire adds its own names for a filtered answer (Anthropic `refusal`, Bedrock's guardrails).
import type { FinishReason } from "./types.js";

export function mapClaudeStop(raw: string, filteredReasons: readonly string[]): FinishReason {
  switch (raw) {
    case "end_turn":
    case "stop_sequence":
      return "stop";
    case "tool_use":
      return "tool_calls";
    case "max_tokens":
      return "length";
    default:
      return filteredReasons.includes(raw) ? "content_filter" : `other:${raw}`;
  }
}
