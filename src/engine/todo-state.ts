// The session's todo list (R-TODO): what `todo_write` (or an approved `exit_plan`) last set,
// restored from the archive on resume, and whether the model owes a review reminder at the next
// turn's start.
import type { RecordLine } from "../record/types.js";
import type { TodoItem } from "../tools/types.js";

/** How an approved `exit_plan`'s result begins: its plan is then the todo list (R-PLAN-1). */
export const APPROVED_PLAN = "The user approved the plan.";

/** The plan's list items (`-`, `*`, `1.`, `- [ ]`) as pending todos; one item when it has none. */
export function planTodos(plan: string): TodoItem[] {
  const items: TodoItem[] = [];
  for (const line of plan.split("\n")) {
    const m = /^\s{0,3}(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+?)\s*$/.exec(line);
    if (m) items.push({ content: m[1], status: "pending" });
  }
  return items.length > 0 ? items : [{ content: "Carry out the approved plan", status: "pending" }];
}

export class TodoState {
  private list: TodoItem[] = [];
  private reminderOwed = false;

  get(): TodoItem[] {
    return this.list;
  }

  set(items: TodoItem[]): void {
    this.list = items;
  }

  /**
   * The todo list outlives turns and processes: it is the last successful todo_write in the
   * archive. A resumed session also owes the review reminder its last turn would have left.
   */
  restore(lines: readonly RecordLine[]): void {
    const okResults = new Set<string>();
    let latest: TodoItem[] | undefined;
    for (let i = lines.length - 1; i >= 0 && latest === undefined; i--) {
      const line = lines[i];
      if (line.type === "tool_result" && line.outcome === "ok" && setsTodos(line)) okResults.add(line.id);
      if (line.type === "assistant_message") {
        for (const call of line.toolCalls) {
          if (!okResults.has(call.id)) continue;
          try {
            const args = JSON.parse(call.arguments) as { todos: TodoItem[]; plan: string };
            latest = call.name === "exit_plan" ? planTodos(args.plan) : args.todos;
          } catch {}
        }
      }
    }
    this.list = latest ?? [];
    const lastEnd = lines.findLast((l) => l.type === "turn_end");
    if (lastEnd?.type === "turn_end") {
      const usedTodoTool = lines.some(
        (l) =>
          l.type === "assistant_message" &&
          l.turn === lastEnd.turn &&
          l.toolCalls.some((c) => c.name === "todo_write"),
      );
      this.noteUse(usedTodoTool);
    }
  }

  /** A turn that ended with open items and never touched the list owes a reminder. */
  noteUse(usedTodoTool: boolean): void {
    this.reminderOwed = !usedTodoTool && this.list.some((t) => t.status !== "completed");
  }

  /** The reminder text when one is owed (then no longer owed), else undefined. */
  takeReminder(): string | undefined {
    if (!this.reminderOwed) return undefined;
    this.reminderOwed = false;
    const open = this.list.filter((t) => t.status !== "completed").map((t) => `- [${t.status}] ${t.content}`);
    return `Reminder: your todo list still has open items. Review it and update it with todo_write if needed:\n${open.join("\n")}`;
  }
}

/** A todo_write, or an exit_plan the person approved (implementing commits the plan as the list). */
function setsTodos(line: Extract<RecordLine, { type: "tool_result" }>): boolean {
  if (line.name === "todo_write") return true;
  const first = line.content[0];
  return line.name === "exit_plan" && first?.type === "text" && first.text.startsWith(APPROVED_PLAN);
}
