// A todo list as text: the todo_write tool's result and the front ends' /todos. Apart from the
// tool so a front end shows todos without loading the tool's schema (and zod with it).
import type { TodoItem } from "./types.js";

const MARK: Record<TodoItem["status"], string> = { pending: "[ ]", in_progress: "[>]", completed: "[x]" };

export function renderTodos(items: TodoItem[]): string {
  if (items.length === 0) return "(no todos)";
  return items.map((t) => `${MARK[t.status]} ${t.content}`).join("\n");
}
