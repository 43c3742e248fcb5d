// `session/load` (ACP): the archive of a tern session replayed as the updates a client would have
// seen live — the user's prompts as user message chunks, reasoning as thought chunks, replies as
// message chunks, each tool call and its result — before the load request is answered. Only the
// conversation as it stands: turns the user took back (undo, /rewind) or cleared are not shown.
import type * as acp from "@agentclientprotocol/sdk";
import type { CallPresenter, TranscriptLine } from "../engine/session.js";
import { undoHistory } from "../workspace/offline-undo.js";
import { statusOf, textContent, UpdateStream } from "./updates.js";

type Part = { type: "text"; text: string } | { type: "image"; mediaType: string; ref: string };

function partsText(parts: readonly Part[]): string {
  return parts.map((p) => (p.type === "text" ? p.text : `[image ${p.mediaType}]`)).join("\n");
}

/** `present`: how a recorded call shows itself (`Session.callPresenter`). */
export function replayUpdates(
  lines: readonly TranscriptLine[],
  cwd: string,
  present: CallPresenter,
): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  const text = (kind: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk", t: string) => {
    if (t) updates.push({ sessionUpdate: kind, content: { type: "text", text: t } });
  };
  const live = new Set(undoHistory(lines).live);
  const cleared = lines.findLastIndex((l) => l.type === "cleared");
  for (const [i, line] of lines.entries()) {
    if (i < cleared || ("turn" in line && typeof line.turn === "number" && !live.has(line.turn))) continue;
    switch (line.type) {
      case "user_prompt":
        for (const part of line.content as Part[]) {
          // Images are stored by reference; the client gets a placeholder naming the type.
          text("user_message_chunk", part.type === "text" ? part.text : `[image ${part.mediaType}]`);
        }
        break;
      case "assistant_message":
        text("agent_thought_chunk", line.reasoning);
        text("agent_message_chunk", line.text);
        for (const call of line.toolCalls)
          updates.push(UpdateStream.toolCall({ ...call, presentation: present(call) }, cwd));
        break;
      case "tool_result": {
        const output = partsText(line.content as Part[]);
        updates.push({
          sessionUpdate: "tool_call_update",
          toolCallId: line.id,
          status: statusOf(line.outcome),
          content: output ? [textContent(output)] : [],
        });
        break;
      }
      default:
        break;
    }
  }
  return updates;
}
