// At engine level: turn-scoped state. Read-before-edit is per turn (R-TOOL-1), follow-ups
// join after the current tool batch (R-TURN-7), the todo list outlives turns and owes a review
// reminder (R-TODO), and `/yolo once` covers exactly the next turn (R-TOOL-2).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { toolMessages, useHarness } from "./harness.js";
import type { FollowUp } from "../../src/engine/door/commands.js";

const h = useHarness();
const ws = (name: string) => join(h.dirs.workspace, name);
const denyAll = async (calls: { id: string }[]) => new Map(calls.map((c) => [c.id, "denied" as const]));

describe("turn-scoped state", () => {
  it("a read in an earlier turn does not authorize an edit in this one", async () => {
    writeFileSync(ws("a.txt"), "alpha\n");
    const t = await h.start();
    h.provider.enqueue(
      openaiToolCalls([{ id: "r1", name: "read_file", args: { path: "a.txt" } }]),
      openaiText("read"),
      openaiToolCalls([
        { id: "e1", name: "edit_file", args: { path: "a.txt", old_string: "alpha", new_string: "A" } },
      ]),
      openaiText("refused"),
    );
    expect((await t.prompt("read a")).stopReason).toBe("completed");
    expect((await t.prompt("edit a")).stopReason).toBe("completed");
    expect(readFileSync(ws("a.txt"), "utf8")).toBe("alpha\n");
    expect(toolMessages(h.provider.requests[3].body).at(-1)).toMatchObject({ id: "e1" });
    expect(toolMessages(h.provider.requests[3].body).at(-1)!.content).toMatch(
      /with read_file before editing it \(edits need a read in this turn\)/,
    );
  });

  it("a follow-up queued while a turn runs joins after the current tool batch", async () => {
    const t = await h.start();
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "sleep 0.3; echo slow" } }]),
      openaiText("saw it"),
    );
    let ticket: FollowUp | undefined;
    t.session.subscribe((ev) => {
      // Typed while the tool runs.
      if (ev.type === "tool_call") ticket = t.session.followUp([{ type: "text", text: "also check B" }]);
    });
    const out = await t.prompt("check A");
    expect(out).toMatchObject({ turn: 1, stopReason: "completed" });
    const messages = h.provider.requests[1].body.messages.map((m: any) => [m.role, m.content]);
    expect(messages.slice(1)).toEqual([
      ["user", "check A"],
      ["assistant", null],
      ["tool", "slow"],
      ["user", "also check B"],
    ]);
    // It joined turn 1 (no second turn) and its ticket settles with turn 1's outcome.
    expect(await ticket!.outcome).toBe(out);
    expect(h.provider.requests).toHaveLength(2);
    const changes = t.events.flatMap((e) =>
      e.type === "follow_up" ? [[e.change, e.turn, e.queued.length]] : [],
    );
    expect(changes).toEqual([
      ["queued", undefined, 1],
      ["joined", 1, 0],
    ]);
    expect(t.session.followUps()).toEqual({ queued: [], held: false });
  });

  it("the todo list outlives turns; open items untouched in a turn make the next request remind", async () => {
    const t = await h.start();
    const todos = [
      { content: "write tests", status: "completed" },
      { content: "fix bug", status: "in_progress" },
    ];
    h.provider.enqueue(
      openaiToolCalls([{ id: "t1", name: "todo_write", args: { todos } }]),
      openaiText("planned"),
      openaiText("turn 2, no todo use"),
      openaiText("turn 3"),
    );
    await t.prompt("plan");
    // Turn 1 used the tool: no reminder in turn 2's request.
    await t.prompt("two");
    expect(JSON.stringify(h.provider.requests[2].body)).not.toContain("Reminder: your todo list");
    // Turn 2 did not touch the list with an open item: turn 3's request carries the reminder.
    await t.prompt("three");
    const msgs = h.provider.requests[3].body.messages;
    const reminder = msgs.at(-1);
    expect(reminder.role).toBe("user");
    expect(reminder.content).toMatch(/^Reminder: your todo list still has open items/);
    expect(reminder.content).toContain("- [in_progress] fix bug");
    expect(reminder.content).not.toContain("write tests");
    expect(msgs.at(-2)).toMatchObject({ role: "user", content: "three" });
    expect(t.session.todos()).toEqual(todos);
  });

  it("a resumed session restores the list and the reminder it owes", async () => {
    const t = await h.start();
    h.provider.enqueue(
      openaiToolCalls([
        { id: "t1", name: "todo_write", args: { todos: [{ content: "ship", status: "pending" }] } },
      ]),
      openaiText("planned"),
      openaiText("idle turn"),
    );
    await t.prompt("plan");
    await t.prompt("two");
    await t.session.close();
    const resumed = await h.start({ resume: { latest: true } });
    expect(resumed.session.todos()).toEqual([{ content: "ship", status: "pending" }]);
    h.provider.enqueue(openaiText("ok"));
    await resumed.prompt("three");
    expect(h.provider.requests.at(-1)!.body.messages.at(-1).content).toMatch(
      /Reminder: .*\n- \[pending\] ship/,
    );
  });

  it("/yolo once approves the next turn only", async () => {
    const t = await h.start({ hooks: { approve: denyAll } });
    await t.session.send({ type: "yolo_once" });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "touch first" } }]),
      openaiText("ran"),
      openaiToolCalls([{ id: "c2", name: "bash", args: { command: "touch second" } }]),
      openaiText("denied"),
    );
    await t.prompt("one");
    await t.prompt("two");
    expect(existsSync(ws("first"))).toBe(true);
    expect(existsSync(ws("second"))).toBe(false);
    expect(toolMessages(h.provider.requests[3].body).at(-1)!.content).toBe("denied by user");
  });
});
