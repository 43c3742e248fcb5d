// Plan mode's pure parts (R-PLAN-1, R-UI-24): how the policy judges each kind of call while
// planning, the Shift+Tab cycle, the plan prompt's answers, and the plan as a todo list.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { planTodos } from "../../src/engine/plan-review.js";
import { TodoState } from "../../src/engine/todo-state.js";
import { type ApprovalCall, ApprovalPolicy, loadApprovalJudge } from "../../src/tools/policy/approval.js";
import { nextMode, planAnswer } from "../../src/tui/plan-flow.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { bashCall as bash, writeCall as write } from "./helpers.js";

let dirs: TempDirs;
beforeEach(async () => {
  dirs = makeTempDirs();
  await loadApprovalJudge();
});
afterEach(() => dirs.cleanup());

const planning = (sandbox: boolean, deny: string[] = []) =>
  new ApprovalPolicy({
    mode: "plan",
    allow: ["write_file", "bash"],
    deny,
    cwd: dirs.workspace,
    planSandbox: () => sandbox,
  });
const mcp = (readOnly: boolean): ApprovalCall => ({
  name: "files__op",
  args: {},
  kind: "mcp",
  paths: [],
  mcp: { set: "files", tool: "op", readOnly },
});

describe("the policy while planning", () => {
  it("runs reads, read-only MCP tools and exit_plan; refuses edits, writing MCP tools, web_fetch and jobs, whatever allow rules say", () => {
    const p = planning(true);
    expect(p.decide({ name: "read_file", args: {}, kind: "read", paths: ["a"] })).toBe("allow");
    expect(p.decide({ name: "exit_plan", args: { plan: "x" }, kind: "read", paths: [] })).toBe("allow");
    expect(p.decide(mcp(true))).toBe("allow");
    const refusals = [
      write("a.txt"),
      mcp(false),
      { name: "web_fetch", args: { url: "https://example.com" }, kind: "fetch", paths: [] },
      { name: "job_kill", args: { id: "j1" }, kind: "read", paths: [] },
      { name: "job_input", args: { id: "j1", text: "x" }, kind: "shell", paths: [] },
      { ...bash("sleep 9"), args: { command: "sleep 9", run_in_background: true } },
    ] satisfies ApprovalCall[];
    for (const call of refusals) {
      const verdict = p.evaluate(call);
      expect(verdict.decision).toBe("deny");
      expect(verdict.message).toMatch(/this session is planning \(plan mode\).*exit_plan/s);
    }
  });

  it("bash runs when the read-only sandbox exists, else asks; deny rules still win", () => {
    expect(planning(true).decide(bash("ls"))).toBe("allow");
    expect(planning(false).evaluate(bash("ls"))).toMatchObject({
      decision: "ask",
      reason: expect.stringMatching(/no OS sandbox/),
    });
    expect(planning(true, ["bash(rm *)"]).evaluate(bash("rm -rf x"))).toMatchObject({
      decision: "deny",
      rule: "bash(rm *)",
    });
  });

  it("/yolo once does not lift planning", () => {
    const p = planning(true);
    p.setYoloOnce(true);
    expect(p.decide(write("a.txt"))).toBe("deny");
  });
});

describe("Shift+Tab and the plan prompt", () => {
  it("cycles ask → auto-edit → plan → ask; yolo goes back to ask", () => {
    expect(nextMode("ask")).toBe("auto-edit");
    expect(nextMode("auto-edit")).toBe("plan");
    expect(nextMode("plan")).toBe("ask");
    expect(nextMode("yolo")).toBe("ask");
  });

  it("reads 1, 2 and 3 <note>", () => {
    expect(planAnswer(" 1 ")).toEqual({ choice: "implement", mode: "auto-edit" });
    expect(planAnswer("2")).toEqual({ choice: "implement", mode: "ask" });
    expect(planAnswer("3 split step two")).toEqual({ choice: "keep_planning", note: "split step two" });
    expect(planAnswer("3")).toEqual({ choice: "keep_planning", note: "" });
  });

  it("the plan's list items become pending todos; a plan without a list is one item", () => {
    expect(planTodos("# Plan\n\n1. Add greet()\n- [ ] Test it\n  * nested\ntext")).toEqual([
      { content: "Add greet()", status: "pending" },
      { content: "Test it", status: "pending" },
      { content: "nested", status: "pending" },
    ]);
    expect(planTodos("Just do it")).toEqual([{ content: "Carry out the approved plan", status: "pending" }]);
  });

  it("a resumed session's todo list is the approved plan; a plan sent back is not", () => {
    const call = (id: string, plan: string) => ({
      type: "assistant_message",
      turn: 1,
      toolCalls: [{ id, name: "exit_plan", arguments: JSON.stringify({ plan }) }],
    });
    const result = (id: string, text: string) => ({
      type: "tool_result",
      turn: 1,
      id,
      name: "exit_plan",
      outcome: "ok",
      content: [{ type: "text", text }],
    });
    const lines = [
      call("p1", "- first"),
      result("p1", "The user approved the plan. The session is now in ask mode"),
      call("p2", "- second"),
      result("p2", "The user wants to keep planning (still plan mode)."),
    ];
    const todos = new TodoState();
    todos.restore(lines as never);
    expect(todos.get()).toEqual([{ content: "first", status: "pending" }]);
  });
});
