// The judge's part of Claude Code's rules (R-WF-5): `permissions.ask` rules ask in every mode but
// a deny still wins, and `task(<agent>)` (Claude's `Task(agent)`) names the sub-agent.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ApprovalCall, ApprovalPolicy } from "../../src/tools/policy/approval.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { bashCall as bash } from "./helpers.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const task = (agent?: string): ApprovalCall => ({
  name: "task",
  args: { description: "d", prompt: "p", ...(agent ? { agent } : {}) },
  kind: "read",
  paths: [],
});

describe("Claude Code's rules in the judge", () => {
  it("an ask rule asks even in yolo; a deny rule still wins over it", async () => {
    const p = new ApprovalPolicy({
      mode: "yolo",
      allow: ["bash"],
      deny: ["bash(git push --force*)"],
      ask: ["bash(git push)", "bash(git push *)"],
      cwd: dirs.workspace,
    });
    await import("../../src/tools/policy/approval.js").then((m) => m.loadApprovalJudge());
    expect(p.evaluate(bash("git push origin main"))).toEqual({
      decision: "ask",
      reason: "ask rule bash(git push *)",
    });
    expect(p.decide(bash("git push --force origin"))).toBe("deny");
    expect(p.decide(bash("git status"))).toBe("allow");
  });

  it("task(explore) matches the agent a task call names, and only it", async () => {
    const p = new ApprovalPolicy({ mode: "ask", allow: [], deny: ["task(explore)"], cwd: dirs.workspace });
    await import("../../src/tools/policy/approval.js").then((m) => m.loadApprovalJudge());
    expect(p.decide(task("explore"))).toBe("deny");
    expect(p.decide(task("general"))).toBe("allow");
    expect(p.decide(task())).toBe("allow");
  });
});
