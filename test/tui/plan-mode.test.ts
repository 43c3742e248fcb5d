// Plan mode in the Ink UI (R-PLAN-1, R-UI-24) in a real pseudo-terminal: Shift+Tab cycles the
// permission mode shown in the status line, and an `exit_plan` is answered at the plan prompt.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useTui } from "./support.js";

const t = useTui();
const statusLine = (lines: string[]) => lines.find((l) => /context \d+% · \d+ tokens/.test(l)) ?? "";

describe("plan mode in the UI", () => {
  it("Shift+Tab cycles ask → auto-edit → plan → ask in the status line", async () => {
    const vt = await t.start();
    expect(statusLine(vt.lines())).toMatch(/· ask · session/);
    await vt.press("shiftTab");
    await vt.waitFor(/· auto-edit · session/);
    await vt.press("shiftTab");
    await vt.waitFor(/· plan · session/);
    await vt.press("shiftTab");
    await vt.waitFor(/· ask · session/);
  });

  it("the plan is shown; implementing (auto-edit) switches the mode and the turn goes on editing", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "p1", name: "exit_plan", args: { plan: "1. write done.txt\n2. report" } }]),
      openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "done.txt", content: "yes" } }]),
      openaiText("implemented"),
    );
    const vt = await t.start(["--mode", "plan"]);
    expect(statusLine(vt.lines())).toMatch(/· plan · session/);
    await vt.type("plan the work");
    await vt.press("enter");
    await vt.waitFor("[1] implement (auto-edit)");
    await vt.waitFor("1. write done.txt");
    await vt.type("1");
    await vt.press("enter");
    await vt.waitFor("implemented");
    await vt.waitFor(/· auto-edit · session/);
    expect(readFileSync(join(t.dirs.workspace, "done.txt"), "utf8")).toBe("yes");
    const result = t.provider.requests[1].body.messages.find((m: any) => m.tool_call_id === "p1");
    expect(result.content).toMatch(/approved the plan.*auto-edit mode.*todo list \(2 items\)/s);
    // Each mode offers what it runs: planning leaves out writes, implementing leaves out exit_plan,
    // and the list changes once, at the switch (tools/policy/mode-offer.ts).
    const offered = (i: number) => t.provider.requests[i].body.tools.map((d: any) => d.function.name);
    expect(offered(0)).toContain("exit_plan");
    expect(offered(0)).not.toContain("write_file");
    expect(offered(1)).toContain("write_file");
    expect(offered(1)).not.toContain("exit_plan");
    expect(offered(2)).toEqual(offered(1));
  });

  it("--plain: the plan and the three choices; 2 implements in ask mode (the edit then asks)", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "p1", name: "exit_plan", args: { plan: "- write done.txt" } }]),
      openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "done.txt", content: "yes" } }]),
      openaiText("implemented"),
    );
    const vt = await t.start(["--plain", "--mode", "plan"], {}, /tern · local\/mock-1 · session \S+/);
    await vt.waitFor(/^› $/m);
    await vt.type("plan the work");
    await vt.press("enter");
    await vt.waitFor("[3] keep planning:");
    expect(vt.lines().join("\n")).toContain("- write done.txt");
    await vt.type("2");
    await vt.press("enter");
    // ask mode: the write asks now, and is allowed.
    await vt.waitFor("Allow? [y]es");
    await vt.type("y");
    await vt.press("enter");
    await vt.waitFor("implemented");
    expect(readFileSync(join(t.dirs.workspace, "done.txt"), "utf8")).toBe("yes");
    const result = t.provider.requests[1].body.messages.find((m: any) => m.tool_call_id === "p1");
    expect(result.content).toMatch(/approved the plan.*ask mode/s);
  });

  it("keep planning sends the note back and stays in plan mode", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "p1", name: "exit_plan", args: { plan: "- edit a.txt" } }]),
      openaiText("revising"),
    );
    const vt = await t.start(["--mode", "plan"]);
    await vt.type("plan it");
    await vt.press("enter");
    await vt.waitFor("[3] keep planning");
    await vt.type("3 also cover the tests");
    await vt.press("enter");
    await vt.waitFor("revising");
    const result = t.provider.requests[1].body.messages.find((m: any) => m.tool_call_id === "p1");
    expect(result.content).toMatch(/keep planning \(still plan mode\)\. Their note: also cover the tests/);
    expect(statusLine(vt.lines())).toMatch(/· plan · session/);
    expect(existsSync(join(t.dirs.workspace, "a.txt"))).toBe(false);
  });
});
