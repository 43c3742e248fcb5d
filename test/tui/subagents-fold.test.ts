// A sub-agent's work folded under its `task` line (R-AGENT-1): while the child runs, its tool
// lines (✓/✗, indented, the newest few) sit under the task call; once it is done they collapse
// to one summary line, and Ctrl+O shows them all. Driven in a real pty against the fake provider.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../src/engine/door/events.js";
import { stripAnsi } from "../../src/tui/ansi.js";
import { reduce } from "../../src/tui/reducer.js";
import { runningRows } from "../../src/tui/tool-view.js";
import { initialState, type UiState } from "../../src/tui/ui-state.js";
import { scriptBySession } from "../e2e/subagents-support.js";
import { runCli } from "../support/cli.js";
import type { ScriptedResponse } from "../support/fake-provider.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { countLines, useTui } from "./support.js";

const t = useTui();

/** A parent whose one `task` call runs `explore`, which reads and greps, then answers `answer`. */
function scriptTodoAgent(answer: ScriptedResponse): void {
  writeFileSync(join(t.dirs.workspace, "notes.txt"), "TODO: ship it\n");
  scriptBySession(t, {
    "look around": [
      openaiToolCalls([
        {
          id: "t1",
          name: "task",
          args: { agent: "explore", description: "find todos", prompt: "find the todos" },
        },
      ]),
      openaiText("the parent is done"),
    ],
    "find the todos": [
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "notes.txt" } }]),
      openaiToolCalls([{ id: "c2", name: "grep", args: { pattern: "TODO" } }]),
      answer,
    ],
  });
}

describe("a sub-agent's work under its task line", () => {
  it("shows the child's calls while it runs, one summary line when done, all of them with Ctrl+O", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The child's answer waits, so its folded lines can be read while it runs.
    scriptTodoAgent({ ...openaiText("one todo: ship it"), holds: new Map([[0, held]]) });
    const vt = await t.start();
    await vt.type("look around");
    await vt.press("enter");

    const running = await vt.waitForScreen(/✓ grep {2}TODO/);
    const rows = running.split("\n");
    const task = rows.findIndex((r) => /task {2}explore: find todos/.test(r));
    expect(task).toBeGreaterThanOrEqual(0);
    // Indented under the task line, in call order, each with its mark.
    expect(rows[task + 1]).toMatch(/^ {4}✓ read_file {2}notes\.txt/);
    expect(rows[task + 2]).toMatch(/^ {4}✓ grep {2}TODO/);
    // The child's own turns and text stay out of the parent's view.
    expect(running).toContain("1 agent running");

    release();
    await vt.waitFor(/the parent is done/);
    await vt.waitFor(/explore · 2 tool calls · \d+\.\ds/);
    const after = vt.lines();
    expect(after.some((l) => /✓ read_file {2}notes\.txt/.test(l))).toBe(false);
    expect(countLines(after, "one todo: ship it")).toBe(0);
    const summary = after.findIndex((l) => /explore · 2 tool calls/.test(l));
    expect(after[summary - 1]).toMatch(/task {2}explore: find todos/);

    await vt.write("\x0f"); // Ctrl+O
    await vt.waitFor(/explore: 2 tool calls/);
    const expanded = vt.lines().join("\n");
    expect(expanded).toMatch(/✓ read_file {2}notes\.txt\n\s*✓ grep {2}TODO/);
    expect(expanded).toContain("one todo: ship it");
  });
});

describe("a replayed task call", () => {
  it("tern --continue shows the same summary line under it, read from the child's own record", async () => {
    scriptTodoAgent(openaiText("one todo: ship it"));
    const run = await runCli(
      ["run", "--yes", "--model", "local/mock-1", "--base-url", t.provider.baseUrl, "look around"],
      { home: t.dirs.home, cwd: t.dirs.workspace },
    );
    expect(run.code).toBe(0);
    const vt = await t.start(["--continue"]);
    await vt.waitFor(/the parent is done/);
    const lines = vt.lines();
    const summary = lines.findIndex((l) => /^ {4}explore · 2 tool calls · \d+\.\ds/.test(l));
    expect(summary).toBeGreaterThan(0);
    expect(lines[summary - 1]).toMatch(/task {2}explore: find todos/);
    // As live: the child's lines and text stay folded until Ctrl+O.
    expect(lines.some((l) => /✓ read_file {2}notes\.txt/.test(l))).toBe(false);
    await vt.write("\x0f"); // Ctrl+O
    await vt.waitFor(/explore: 2 tool calls/);
    expect(vt.lines().join("\n")).toMatch(/✓ read_file {2}notes\.txt\n\s*✓ grep {2}TODO/);
  });
});

describe("the fold (pure)", () => {
  const ev = (event: EngineEvent, child = false) => ({
    type: "event" as const,
    event: child
      ? ({ ...event, session: "c", agent: "explore", parent_call: "t1" } as unknown as EngineEvent)
      : event,
    now: 1000,
  });
  const call = (id: string, name: string, title: string): EngineEvent => ({
    type: "tool_call",
    id,
    name,
    arguments: "{}",
    presentation: { title, kind: "other", locations: [] },
  });

  it("keeps the newest five child lines, counts the earlier ones, ignores the child's turns", () => {
    let s: UiState = [ev({ type: "turn_start", turn: 1 }), ev(call("t1", "task", "explore: look"))].reduce(
      reduce,
      initialState({ model: "openai/mock-1", sessionId: "s1", contextWindow: 1000 }),
    );
    s = reduce(s, ev({ type: "turn_start", turn: 1 }, true));
    s = reduce(s, ev({ type: "text_delta", text: "child text\n\n" }, true));
    for (let i = 1; i <= 7; i++) s = reduce(s, ev(call(`c${i}`, "grep", `p${i}`), true));
    s = reduce(
      s,
      ev({ type: "tool_result", id: "c7", name: "grep", outcome: "error", content: "bad" }, true),
    );
    expect(s.running).toHaveLength(1);
    expect(s.items.some((i) => i.text.includes("child text"))).toBe(false);
    const rows = runningRows(s.running[0], 80).map(stripAnsi);
    expect(rows.slice(1)).toEqual([
      "    +2 earlier",
      "    ○ grep  p3",
      "    ○ grep  p4",
      "    ○ grep  p5",
      "    ○ grep  p6",
      "    ✗ grep  p7",
    ]);
  });
});
