// Shared test scaffolding: a real ToolContext over a temp workspace, and approval calls.
import type { ApprovalCall } from "../../src/tools/policy/approval.js";
import { TurnReadTracker } from "../../src/tools/read-tracker.js";
import type { TodoItem, ToolContext, ToolResult } from "../../src/tools/types.js";

export function makeCtx(
  cwd: string,
  over: Partial<ToolContext> = {},
): ToolContext & { todoList: TodoItem[] } {
  const state = { todoList: [] as TodoItem[] };
  const ctx = {
    cwd,
    signal: new AbortController().signal,
    bashTimeoutSeconds: 30,
    readTracker: new TurnReadTracker(),
    todos: {
      get: () => state.todoList,
      set: (items: TodoItem[]) => {
        state.todoList = items;
      },
    },
    ...over,
  };
  Object.defineProperty(ctx, "todoList", { get: () => state.todoList });
  return ctx as ToolContext & { todoList: TodoItem[] };
}

export function textOf(r: ToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mediaType}]`)).join("\n");
}

/** Calls as the approval policy sees them. */
export const bashCall = (command: string): ApprovalCall => ({
  name: "bash",
  args: { command },
  kind: "shell",
  paths: [],
});
export const writeCall = (path: string): ApprovalCall => ({
  name: "write_file",
  args: { path },
  kind: "edit",
  paths: [path],
});
