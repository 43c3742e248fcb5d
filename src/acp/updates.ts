// Engine events → ACP `session/update` notifications, in the order the engine publishes them:
// text and reasoning deltas become message and thought chunks, a tool call a `tool_call`
// (kind, title, locations, raw input), its result a `tool_call_update` (completed, or failed
// for a rejected or failed call) carrying the output and, for edits, a diff of the file.
import type * as acp from "@agentclientprotocol/sdk";
import type { EngineEvent } from "../engine/door/events.js";
import type { Session } from "../engine/session.js";
import type { CallPresentation } from "../engine/door/events.js";
import { editedPath, parseArgs, readText, toolLocations, toolTitle } from "./tool-info.js";

type TodoItem = ReturnType<Session["todos"]>[number];

export type SendUpdate = (update: acp.SessionUpdate) => void;

interface OpenCall {
  name: string;
  /** `think` (the todo list) also updates the client's plan. */
  kind: CallPresentation["kind"];
  path?: string;
  /** The file's text before the call; null when it did not exist, undefined when not shown. */
  before: string | null | undefined;
}

/** The ACP status a tern tool outcome ends in. */
export function statusOf(outcome: string): acp.ToolCallStatus {
  return outcome === "ok" ? "completed" : "failed";
}

export function textContent(text: string): acp.ToolCallContent {
  return { type: "content", content: { type: "text", text } };
}

export function planEntries(todos: readonly TodoItem[]): acp.PlanEntry[] {
  return todos.map((t) => ({
    content: t.content,
    priority: "medium",
    status: t.status === "completed" ? "completed" : t.status === "in_progress" ? "in_progress" : "pending",
  }));
}

export class UpdateStream {
  private readonly calls = new Map<string, OpenCall>();

  constructor(
    private readonly cwd: string,
    private readonly send: SendUpdate,
    private readonly todos: () => readonly TodoItem[],
  ) {}

  /** A tool call as the client first sees it (also used when a load replays the archive). */
  static toolCall(
    call: { id: string; name: string; arguments: string; presentation: CallPresentation },
    cwd: string,
  ): acp.SessionUpdate {
    return {
      sessionUpdate: "tool_call",
      toolCallId: call.id,
      title: toolTitle(call.name, call.presentation),
      kind: call.presentation.kind,
      status: "pending",
      locations: toolLocations(call.presentation, cwd),
      rawInput: parseArgs(call.arguments),
    };
  }

  handle(event: EngineEvent): void {
    switch (event.type) {
      case "text_delta":
        this.send({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.text } });
        return;
      case "reasoning_delta":
        this.send({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: event.text } });
        return;
      case "tool_call": {
        const path = editedPath(event.presentation, this.cwd);
        // The file's text before the call runs: the engine publishes the calls before it runs them.
        this.calls.set(event.id, {
          name: event.name,
          kind: event.presentation.kind,
          path,
          before: path ? readText(path) : undefined,
        });
        this.send(UpdateStream.toolCall(event, this.cwd));
        return;
      }
      case "approval":
        if (event.decision === "approved")
          this.send({ sessionUpdate: "tool_call_update", toolCallId: event.id, status: "in_progress" });
        return;
      case "tool_result": {
        const call = this.calls.get(event.id);
        this.calls.delete(event.id);
        const content: acp.ToolCallContent[] = [];
        if (call?.path && call.before !== undefined && event.outcome === "ok") {
          const after = readText(call.path);
          if (typeof after === "string")
            content.push({ type: "diff", path: call.path, oldText: call.before, newText: after });
        }
        if (event.content) content.push(textContent(event.content));
        this.send({
          sessionUpdate: "tool_call_update",
          toolCallId: event.id,
          status: statusOf(event.outcome),
          content,
          rawOutput: { outcome: event.outcome, content: event.content },
        });
        if (call?.kind === "think" && event.outcome === "ok")
          this.send({ sessionUpdate: "plan", entries: planEntries(this.todos()) });
        return;
      }
      case "notice":
        process.stderr.write(`notice: ${event.text}\n`);
        return;
      default:
        return;
    }
  }
}
