// Pieces every request builder shares when it writes tern's history in a provider's messages
// (Anthropic, Bedrock Converse, Gemini; Responses for the text forms): the role alternation those APIs require, a call's
// argument text as an input object, and the text form of calls and results when no tools are sent.
import type { ToolCall, ToolResultMessage } from "../vocab/messages.js";

export interface WireTurn<Role extends string, Block> {
  role: Role;
  content: Block[];
}

/**
 * Appending to the previous message of the same role keeps the alternation the APIs require:
 * tool results of one assistant message, and a prompt right after them, share one user message;
 * a message with nothing sendable disappears without a gap.
 */
export function appendToTurn<Role extends string, Block>(
  out: WireTurn<Role, Block>[],
  role: Role,
  content: Block[],
): void {
  if (content.length === 0) return;
  const last = out[out.length - 1];
  if (last && last.role === role) last.content.push(...content);
  else out.push({ role, content });
}

/** The model's raw argument text → the input object; anything not a JSON object becomes `{}`. */
export function toolInputObject(raw: string): Record<string, unknown> {
  try {
    const value = JSON.parse(raw);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** A tool call as text, for a request without tools defined (R-SIDE-1). */
export function toolCallText(call: ToolCall): string {
  return `[tool call ${call.id}: ${call.name} ${call.arguments}]`;
}

/** The line heading a tool result sent as text, for a request without tools defined (R-SIDE-1). */
export function toolResultHead(message: ToolResultMessage): string {
  return `[result of tool call ${message.toolCallId} (${message.toolName})${message.isError ? ", an error" : ""}]`;
}
