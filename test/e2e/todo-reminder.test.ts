// R-TODO through the built CLI, across runs of one session: a turn that
// stops with a todo list it did not touch, items still open, puts the review reminder into the
// next request; a turn that touched the list does not, and a list with nothing open never does.
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, useE2E } from "./tools-support.js";

const e = useE2E();
const REMINDER =
  /^Reminder: your todo list still has open items\. Review it and update it with todo_write if needed:\n- \[in_progress\] fix bug$/;
const lastUser = (i: number) =>
  e.provider.requests[i].body.messages.filter((m: any) => m.role === "user").at(-1).content;

describe("the todo review reminder (R-TODO)", () => {
  it("only after a turn that left open items untouched, in the next request", async () => {
    const todos = [
      { content: "write tests", status: "completed" },
      { content: "fix bug", status: "in_progress" },
    ];
    e.provider.enqueue(
      openaiToolCalls([{ id: "t1", name: "todo_write", args: { todos } }]),
      openaiText("planned"),
    );
    expect((await ternRun(e, ["--yes"], "plan")).code).toBe(0);
    e.provider.enqueue(openaiText("two"));
    expect((await ternRun(e, ["--yes", "--continue"], "two")).code).toBe(0);
    // Turn 1 touched the list: turn 2's request has no reminder.
    expect(lastUser(2)).toBe("two");
    e.provider.enqueue(openaiText("three"));
    expect((await ternRun(e, ["--yes", "--continue"], "three")).code).toBe(0);
    // Turn 2 stopped without touching it, an item open: turn 3's request carries the reminder.
    expect(lastUser(3)).toMatch(REMINDER);
    const done = todos.map((t) => ({ ...t, status: "completed" }));
    e.provider.enqueue(
      openaiToolCalls([{ id: "t2", name: "todo_write", args: { todos: done } }]),
      openaiText("all done"),
    );
    expect((await ternRun(e, ["--yes", "--continue"], "finish")).code).toBe(0);
    e.provider.enqueue(openaiText("idle"));
    e.provider.enqueue(openaiText("idle again"));
    expect((await ternRun(e, ["--yes", "--continue"], "five")).code).toBe(0);
    expect((await ternRun(e, ["--yes", "--continue"], "six")).code).toBe(0);
    // Nothing open: no reminder, ever.
    expect(lastUser(6)).toBe("five");
    expect(lastUser(7)).toBe("six");
  }, 90_000);
});
