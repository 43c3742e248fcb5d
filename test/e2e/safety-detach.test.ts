// §10 (no process outlives its session; hook timeouts) through the built CLI: a process that drops its tag (TERN_TOOL_PROCESS)
// and makes a session of its own (`setsid`), from a bash call, a background job or a hook, does
// not outlive `tern run` (§10 amended 2026-12-07: a cgroup where the machine offers one); and a
// hook whose detached child keeps its stdout open does not hold the turn past the hook's timeout,
// nor keep SIGTERM from ending tern. The vitest timeouts are safety nets: before the fix these
// runs waited for `sleep 300`.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { containment } from "../../src/tools/builtin/process-cgroup.js";
import { running } from "../support/process-state.js";
import { killLeftovers, runArgs, startTern } from "./process-support.js";
import { recordLines, ternRun, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();
const started: number[] = [];
afterEach(() => {
  killLeftovers();
  for (const pid of started.splice(0))
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Gone, as it should be.
    }
});

const file = (name: string) => join(e.dirs.workspace, name);
/** Whether tern gets a cgroup on this machine (as it runs these tests); else the tag scan is all. */
const CGROUP = containment() === "cgroup";
/** A `sleep 300` that leaves the call's group and its tag, writing its pid to `name`; waits for the file. */
const detach = (name: string) =>
  `env -u TERN_TOOL_PROCESS setsid sh -c 'echo $$ > ${name}; exec sleep 300' >/dev/null 2>&1 </dev/null & ` +
  `while [ ! -s ${name} ]; do sleep 0.05; done; echo detached`;
const pidIn = (name: string) => {
  const pid = Number(readFileSync(file(name), "utf8"));
  started.push(pid);
  return pid;
};

describe.skipIf(!CGROUP)("no process outlives tern run, however it detaches", () => {
  it("setsid without the tag, from a bash call and from a background job", async () => {
    e.provider.enqueue(
      openaiToolCalls([
        { id: "plain", name: "bash", args: { command: detach("plain.pid") } },
        {
          id: "job",
          name: "bash",
          args: { command: `${detach("job.pid")}; sleep 300`, run_in_background: true },
        },
      ]),
      openaiToolCalls([
        { id: "wait", name: "job_output", args: { id: "job-1", wait_for: "detached", timeout_seconds: 30 } },
      ]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code, run.stderr).toBe(0);
    const plain = pidIn("plain.pid");
    const job = pidIn("job.pid");
    // It really had left: neither carries the tag nor shares the call's group.
    expect(running(plain)).toBe(false);
    expect(running(job)).toBe(false);
  }, 60_000);

  it("a hook's detached child is gone after the run too", async () => {
    writeUserConfig(e, {
      hooks: {
        UserPromptSubmit: [
          { hooks: [{ type: "command", command: `${detach("hook.pid")} >/dev/null`, timeout: 20 }] },
        ],
      },
    });
    e.provider.enqueue(openaiText("done"));
    const run = await ternRun(e, ["--yes"]);
    expect(run.code, run.stderr).toBe(0);
    expect(running(pidIn("hook.pid"))).toBe(false);
  }, 60_000);
});

describe("where there is no cgroup: the process tag (TERN_CONTAINMENT=tag-scan)", () => {
  const tagScan = { env: { TERN_CONTAINMENT: "tag-scan" } };
  /** A `sleep 300` in a session of its own that keeps its environment (and so its tag). */
  const keepTag = (name: string) =>
    `setsid sh -c 'echo $$ > ${name}; exec sleep 300' >/dev/null 2>&1 </dev/null & ` +
    `while [ ! -s ${name} ]; do sleep 0.05; done; echo detached`;

  it("setsid from a bash call, a job and a hook, tag kept: all gone after the run", async () => {
    writeUserConfig(e, {
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `${keepTag("hook.pid")} >/dev/null` }] }],
      },
    });
    e.provider.enqueue(
      openaiToolCalls([
        { id: "plain", name: "bash", args: { command: keepTag("plain.pid") } },
        {
          id: "job",
          name: "bash",
          args: { command: `${keepTag("job.pid")}; sleep 300`, run_in_background: true },
        },
      ]),
      openaiToolCalls([
        { id: "wait", name: "job_output", args: { id: "job-1", wait_for: "detached", timeout_seconds: 30 } },
      ]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes"], "do it", tagScan);
    expect(run.code, run.stderr).toBe(0);
    for (const name of ["plain.pid", "job.pid", "hook.pid"]) expect(running(pidIn(name))).toBe(false);
  }, 60_000);
});

describe("a hook's timeout ends the wait on its pipes", () => {
  it("a detached child holding the hook's stdout: the hook times out as a non-blocking error, the turn goes on", async () => {
    writeUserConfig(e, {
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              { type: "command", command: `setsid sh -c 'echo $$ > held.pid; exec sleep 300' &`, timeout: 2 },
            ],
          },
        ],
      },
    });
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo ran" } }]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code, run.stderr).toBe(0);
    const hook = run.events.find((ev) => ev.type === "hook");
    expect(hook).toMatchObject({ event: "PreToolUse", decision: "error" });
    expect(run.events.find((ev) => ev.type === "tool_result" && ev.id === "c1")).toMatchObject({
      outcome: "ok",
    });
    expect(recordLines(e).some((l) => l.type === "turn_end")).toBe(true);
    expect(running(pidIn("held.pid"))).toBe(false);
  }, 60_000);

  it("SIGTERM ends tern while a SessionStart hook's child holds its pipes (exit 143, nothing left)", async () => {
    writeUserConfig(e, {
      hooks: {
        SessionStart: [
          {
            hooks: [
              {
                type: "command",
                command: `setsid sh -c 'echo $$ > held.pid; exec sleep 300' &`,
                timeout: 600,
              },
            ],
          },
        ],
      },
    });
    const t = startTern(e, runArgs(e, ["--yes"]));
    await t.waitFor(
      () => existsSync(file("held.pid")) && readFileSync(file("held.pid"), "utf8").length > 0,
      "the hook's child",
    );
    const held = pidIn("held.pid");
    t.child.kill("SIGTERM");
    expect((await t.exit).code).toBe(143);
    expect(running(held)).toBe(false);
  }, 60_000);

  it("SIGTERM ends tern while such a hook holds its pipes (exit 143, nothing left)", async () => {
    writeUserConfig(e, {
      hooks: {
        UserPromptSubmit: [
          {
            hooks: [
              {
                type: "command",
                command: `setsid sh -c 'echo $$ > held.pid; exec sleep 300' &`,
                timeout: 600,
              },
            ],
          },
        ],
      },
    });
    const t = startTern(e, runArgs(e, ["--yes"]));
    await t.waitFor(
      () => existsSync(file("held.pid")) && readFileSync(file("held.pid"), "utf8").length > 0,
      "the hook's child",
    );
    const held = pidIn("held.pid");
    t.child.kill("SIGTERM");
    expect((await t.exit).code).toBe(143);
    expect(running(held)).toBe(false);
  }, 60_000);
});
