// `/jobs` and `/clear` over a live session (R-JOB-2), and job_input judged like bash (R-JOB-1):
// real jobs started by a scripted model, listed with their last lines, ended by `/jobs kill` and
// by `/clear`, checked by pid.
import { describe, expect, it } from "vitest";
import { runLineCommand } from "../../src/cli/line-commands.js";
import type { PendingCall } from "../../src/tools/executor.js";
import { useHarness } from "../engine/harness.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { running } from "../support/process-state.js";
import { lineHost } from "./line-support.js";

const h = useHarness();

async function lineContext(approve?: (call: PendingCall) => "approved" | "denied") {
  const asked: PendingCall[] = [];
  const t = await h.start({
    hooks: {
      approve: async (calls) =>
        new Map(
          calls.map((c) => {
            asked.push(c);
            return [c.id, approve ? approve(c) : "approved"];
          }),
        ),
    },
  });
  const { ctx, printed } = lineHost(h, t.session);
  return { t, ctx, printed, asked };
}

const startJob = (id: string, command: string) =>
  openaiToolCalls([{ id, name: "bash", args: { command, run_in_background: true } }]);

describe("/jobs and /clear", () => {
  it("/jobs lists jobs with their last lines and ends one; /clear ends the rest", async () => {
    const { t, ctx, printed } = await lineContext();
    h.provider.enqueue(
      startJob("a", "echo first; echo second; sleep 300"),
      startJob("b", "echo other; sleep 300"),
      openaiText("started"),
    );
    await t.prompt("start two jobs");
    const [a, b] = t.events.filter((e) => e.type === "job_start").map((e) => (e as { pid: number }).pid);
    await runLineCommand("/jobs", ctx);
    expect(printed.at(-1)).toMatch(
      /^job-1 {2}running, pid \d+ {2}echo first; echo second; sleep 300\n {4}first\n {4}second\njob-2/,
    );
    await runLineCommand("/jobs kill job-1", ctx);
    expect(printed.at(-1)).toBe("job-1 was stopped");
    expect(running(a)).toBe(false);
    await runLineCommand("/jobs kill job-7", ctx);
    expect(printed.at(-1)).toMatch(/no job "job-7"/);
    await runLineCommand("/jobs", ctx);
    expect(printed.at(-1)).toMatch(/job-1 {2}exited SIGTERM/);
    expect(t.session.jobs().filter((j) => j.state.kind === "running")).toHaveLength(1);
    await t.session.send({ type: "clear" });
    expect(running(b)).toBe(false);
    const ends = t.session.transcript().filter((l) => l.type === "job_end");
    expect(ends.map((l) => [l.id, l.reason])).toEqual([
      ["job-1", "killed"],
      ["job-2", "session_ended"],
    ]);
  });

  it("job_input is judged like a bash command: asked about, and denied input never reaches the job", async () => {
    const { t, asked } = await lineContext((c) => (c.name === "job_input" ? "denied" : "approved"));
    h.provider.enqueue(
      startJob("a", 'while read l; do echo "ran $l"; done'),
      openaiToolCalls([{ id: "in", name: "job_input", args: { id: "job-1", text: "rm -rf /tmp/x\n" } }]),
      openaiToolCalls([{ id: "out", name: "job_output", args: { id: "job-1", timeout_seconds: 0.3 } }]),
      openaiText("done"),
    );
    await t.prompt("go");
    expect(asked.map((c) => c.name)).toEqual(["bash", "job_input"]);
    const results = t.session.transcript().filter((l) => l.type === "tool_result");
    expect(results.find((l) => l.id === "in")).toMatchObject({ outcome: "denied" });
    const out = results.find((l) => l.id === "out")!;
    expect(out.outcome).toBe("ok");
    expect(JSON.stringify(out.content)).toContain("(no new output)");
  });
});
