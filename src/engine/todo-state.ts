// The session's todo list (R-TODO): what `todo_write` last set, restored from the archive on
// resume, and whether the model owes a review reminder at the next turn's start.
import type { RecordLine } from "../record/types.js";
import type { TodoItem } from "../tools/types.js";

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
      if (line.type === "tool_result" && line.name === "todo_write" && line.outcome === "ok")
        okResults.add(line.id);
      if (line.type === "assistant_message") {
        for (const call of line.toolCalls) {
          if (call.name !== "todo_write" || !okResults.has(call.id)) continue;
          try {
            latest = (JSON.parse(call.arguments) as { todos: TodoItem[] }).todos;
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
