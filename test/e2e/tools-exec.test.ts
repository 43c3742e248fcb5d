// Executor scenarios through `tern run --json`: batch order and exact results
// (R-TOOL-3), read-before-edit per turn (R-TOOL-1), bad calls as tool errors (R-TOOL-5, R-TOOL-4).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { recordLines, ternRun, toolMessages, useE2E } from "./tools-support.js";

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);

describe("tool batches end to end", () => {
  it("runs two edits of one file in order plus a read of another, results in call order", async () => {
    writeFileSync(ws("a.txt"), "one\ntwo\nthree\n");
    writeFileSync(ws("b.txt"), "bee\n");
    e.provider.enqueue(
      openaiToolCalls([{ id: "r1", name: "read_file", args: { path: "a.txt" } }]),
      openaiToolCalls([
        // The second edit only matches after the first has run: order is observable.
        { id: "e1", name: "edit_file", args: { path: "a.txt", old_string: "two", new_string: "TWO" } },
        { id: "e2", name: "edit_file", args: { path: "a.txt", old_string: "TWO\n", new_string: "TWO!\n" } },
        { id: "r2", name: "read_file", args: { path: "b.txt" } },
      ]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    expect(readFileSync(ws("a.txt"), "utf8")).toBe("one\nTWO!\nthree\n");
    const sent = toolMessages(e.provider.requests[2].body);
    expect(sent.map((m) => m.id)).toEqual(["r1", "e1", "e2", "r2"]);
    expect(sent[1].content).toBe("Edited a.txt: replaced 1 occurrence.");
    expect(sent[2].content).toBe("Edited a.txt: replaced 1 occurrence.");
    expect(sent[3].content).toBe("     1\tbee");
    // The events carry the same exact values (each sent as its call finished, R-TOOL-3).
    const results = run.events.filter((ev) => ev.type === "tool_result");
    const byId = (xs: { id: string; content: string }[]) =>
      Object.fromEntries(xs.map((x) => [x.id, x.content]));
    expect(byId(results)).toEqual(byId(sent));
    expect(results).toHaveLength(sent.length);
    expect(run.end).toMatchObject({ tool_calls: 4, tool_errors: 0, rounds: 3 });
  });

  it("refuses an edit without a read, and one after the file changed on disk", async () => {
    writeFileSync(ws("a.txt"), "alpha\n");
    writeFileSync(ws("c.txt"), "gamma\n");
    e.provider.enqueue(
      openaiToolCalls([
        { id: "e0", name: "edit_file", args: { path: "a.txt", old_string: "alpha", new_string: "A" } },
        { id: "r1", name: "read_file", args: { path: "c.txt" } },
      ]),
      // The file changes on disk between the read and the edit.
      openaiToolCalls([{ id: "b1", name: "bash", args: { command: "echo gamma2 > c.txt" } }]),
      openaiToolCalls([
        { id: "e1", name: "edit_file", args: { path: "c.txt", old_string: "gamma2", new_string: "G" } },
      ]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    expect(readFileSync(ws("a.txt"), "utf8")).toBe("alpha\n");
    expect(readFileSync(ws("c.txt"), "utf8")).toBe("gamma2\n");
    const first = toolMessages(e.provider.requests[1].body);
    expect(first[0].content).toMatch(/Read .*a\.txt with read_file before editing it/);
    const last = toolMessages(e.provider.requests[3].body).at(-1)!;
    expect(last.id).toBe("e1");
    expect(last.content).toMatch(/c\.txt changed on disk since you read it; read it again/);
    const outcomes = run.events.filter((ev) => ev.type === "tool_result").map((r) => [r.id, r.outcome]);
    // Results are published as calls finish; compare them in call order.
    const order = ["e0", "r1", "b1", "e1"];
    outcomes.sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]));
    expect(outcomes).toEqual([
      ["e0", "error"],
      ["r1", "ok"],
      ["b1", "ok"],
      ["e1", "error"],
    ]);
    expect(run.end.tool_errors).toBe(2);
  });

  it("read then edit in the same turn works, and a file the turn wrote counts as read", async () => {
    writeFileSync(ws("a.txt"), "alpha\n");
    e.provider.enqueue(
      openaiToolCalls([
        { id: "r1", name: "read_file", args: { path: "a.txt" } },
        { id: "w1", name: "write_file", args: { path: "new.txt", content: "x\n" } },
      ]),
      openaiToolCalls([
        { id: "e1", name: "edit_file", args: { path: "a.txt", old_string: "alpha", new_string: "A" } },
        { id: "e2", name: "edit_file", args: { path: "new.txt", old_string: "x", new_string: "y" } },
      ]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    expect(readFileSync(ws("a.txt"), "utf8")).toBe("A\n");
    expect(readFileSync(ws("new.txt"), "utf8")).toBe("y\n");
    expect(run.end.tool_errors).toBe(0);
  });

  it("unknown tools, invalid JSON and a failing bash are tool errors; the turn goes on", async () => {
    e.provider.enqueue(
      openaiToolCalls([
        { id: "u1", name: "no_such_tool", args: { x: 1 } },
        { id: "j1", name: "read_file", args: '{"path": "a.txt"' },
        { id: "s1", name: "read_file", args: { nope: true } },
        { id: "b1", name: "bash", args: { command: "echo out; exit 7" } },
      ]),
      openaiText("recovered"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    expect(run.end).toMatchObject({ stop_reason: "completed", tool_calls: 4, tool_errors: 4, rounds: 2 });
    const sent = toolMessages(e.provider.requests[1].body);
    expect(sent.map((m) => m.id)).toEqual(["u1", "j1", "s1", "b1"]);
    expect(sent[0].content).toMatch(/^Unknown tool 'no_such_tool'\. Available tools: .*read_file/);
    expect(sent[1].content).toContain("not valid JSON");
    expect(sent[1].content).toContain('Received: {"path": "a.txt"');
    expect(sent[2].content).toMatch(/Invalid arguments for read_file: .*path/);
    expect(sent[3].content).toBe("out\n[exit status 7]");
    // The record marks them as errors, and the raw arguments are kept as sent.
    const lines = recordLines(e);
    const assistant = lines.find((l) => l.type === "assistant_message");
    expect(assistant.toolCalls[1].arguments).toBe('{"path": "a.txt"');
    const outcomes = lines.filter((l) => l.type === "tool_result").map((l) => l.outcome);
    expect(outcomes).toEqual(["error", "error", "error", "error"]);
  });
});
