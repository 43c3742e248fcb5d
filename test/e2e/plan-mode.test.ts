// Plan mode (R-PLAN-1) headless, through the built CLI against the fake provider: what a planning
// session may and may not do, and `exit_plan` ending `tern run --mode plan` with the plan.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { recordLines, ternRun, toolMessages, useE2E, writeUserConfig } from "./tools-support.js";

const bwrapWorks =
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--", "true"]).status === 0;
if (!bwrapWorks)
  console.warn("plan-mode sandbox test skipped: bubblewrap (bwrap) cannot run on this machine");

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);
const PLAN = "## Plan\n\n1. Add `greet()` to src/a.ts\n2. Test it\n";

function sentResults(index = 1): { id: string; content: string }[] {
  return e.provider.requests[index] ? toolMessages(e.provider.requests[index].body) : [];
}

describe("plan mode (tern run --mode plan)", () => {
  it("refuses edits, web_fetch and background jobs with the planning result, and reads run", async () => {
    writeFileSync(ws("a.txt"), "alpha\n");
    e.provider.enqueue(
      openaiToolCalls([
        { id: "w1", name: "write_file", args: { path: "new.txt", content: "x" } },
        { id: "r1", name: "read_file", args: { path: "a.txt" } },
        { id: "f1", name: "web_fetch", args: { url: "http://127.0.0.1:9/" } },
        { id: "j1", name: "bash", args: { command: "sleep 5", run_in_background: true } },
      ]),
      openaiText("ok"),
    );
    // --yes does not lift planning: refusals are the mode's, not asks.
    const run = await ternRun(e, ["--mode", "plan", "--yes"]);
    expect(run.code).toBe(0);
    expect(existsSync(ws("new.txt"))).toBe(false);
    const sent = sentResults();
    for (const id of ["w1", "f1", "j1"]) {
      expect(sent.find((m) => m.id === id)?.content).toMatch(
        /this session is planning \(plan mode\).*call exit_plan/s,
      );
    }
    expect(sent.find((m) => m.id === "r1")?.content).toContain("alpha");
    // What plan mode refuses is not offered (tools/policy/mode-offer.ts), yet a call of it gets
    // the planning refusal above; the list stays the same round after round.
    const offered = (i: number) => e.provider.requests[i].body.tools.map((d: any) => d.function.name);
    expect(offered(0)).toEqual(expect.arrayContaining(["read_file", "bash", "grep", "exit_plan", "task"]));
    for (const left of ["write_file", "edit_file", "edit_lineno", "web_fetch", "job_output", "job_kill"])
      expect(offered(0)).not.toContain(left);
    expect(JSON.stringify(e.provider.requests[1].body.tools)).toBe(
      JSON.stringify(e.provider.requests[0].body.tools),
    );
    const outcomes = recordLines(e)
      .filter((l) => l.type === "tool_result")
      .map((l) => [l.id, l.outcome]);
    expect(outcomes).toEqual(
      expect.arrayContaining([
        ["w1", "denied"],
        ["r1", "ok"],
      ]),
    );
  });

  it("exit_plan ends the turn and the plan is printed as the answer, exit 0", async () => {
    e.provider.enqueue(openaiToolCalls([{ id: "p1", name: "exit_plan", args: { plan: PLAN } }]));
    const result = await runCli(
      ["run", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, "--mode", "plan", "plan it"],
      { home: e.dirs.home, cwd: e.dirs.workspace, env: { OPENAI_API_KEY: "sk-test-key" } },
    );
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(PLAN);
    // One model call: the turn ends with the batch, no round to comment on the plan.
    expect(e.provider.requests).toHaveLength(1);
    const end = recordLines(e).find((l) => l.type === "turn_end");
    expect(end).toMatchObject({ stopReason: "completed" });
  });

  it("a bad --mode is a one-line usage error, exit 2", async () => {
    const result = await runCli(["run", "--mode", "planning", "hi"], {
      home: e.dirs.home,
      cwd: e.dirs.workspace,
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe("tern: --mode: must be ask, auto-edit, yolo, plan, got 'planning'");
  });

  it("permissions.mode plan from the config plans too", async () => {
    writeUserConfig(e, { permissions: { mode: "plan" } });
    e.provider.enqueue(
      openaiToolCalls([
        { id: "e1", name: "edit_file", args: { path: "a.txt", old_string: "a", new_string: "b" } },
      ]),
      openaiText("ok"),
    );
    writeFileSync(ws("a.txt"), "a\n");
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    expect(readFileSync(ws("a.txt"), "utf8")).toBe("a\n");
    expect(sentResults()[0]?.content).toMatch(/planning/);
  });

  it.skipIf(!bwrapWorks)(
    "bash runs inside the read-only sandbox without asking: reads work, a write fails",
    async () => {
      writeFileSync(ws("a.txt"), "alpha\n");
      e.provider.enqueue(
        openaiToolCalls([
          { id: "b1", name: "bash", args: { command: "cat a.txt; echo x > b.txt; echo rc=$?" } },
        ]),
        openaiText("ok"),
      );
      const run = await ternRun(e, ["--mode", "plan"]);
      expect(run.code).toBe(0);
      expect(existsSync(ws("b.txt"))).toBe(false);
      const out = sentResults()[0]?.content ?? "";
      expect(out).toContain("alpha");
      expect(out).toMatch(/Read-only file system/);
      expect(out).toContain("rc=1");
      expect(run.events.filter((ev) => ev.type === "approval")).toEqual([]);
      expect(recordLines(e).find((l) => l.type === "tool_result")).toMatchObject({ sandboxed: true });
    },
  );
});
