import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BASH_OUTPUT_CAP, bashTool } from "../../src/tools/builtin/bash.js";
import { settleProcessKills } from "../../src/tools/builtin/process-groups.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // A zombie still answers kill(0); ps tells the truth.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/\) Z /.test(stat);
  } catch {
    return false;
  }
}

async function waitDead(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!alive(pid)) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return !alive(pid);
}

describe("bash (R-BASH-1)", () => {
  it("runs in the workspace and interleaves stdout and stderr", async () => {
    const r = await bashTool.run(
      { command: "pwd; echo out; echo err >&2; echo out2" },
      makeCtx(dirs.workspace),
    );
    expect(r.outcome).toBe("ok");
    expect(textOf(r)).toBe(`${dirs.workspace}\nout\nerr\nout2`);
  });

  it("makes a non-zero exit an error that still carries output and status", async () => {
    const r = await bashTool.run({ command: "echo partial; exit 3" }, makeCtx(dirs.workspace));
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toBe("partial\n[exit status 3]");
  });

  it("says (no output) for a silent success", async () => {
    expect(textOf(await bashTool.run({ command: "true" }, makeCtx(dirs.workspace)))).toBe("(no output)");
  });

  it("kills the whole process group on timeout, background children too", async () => {
    const pidFile = join(dirs.workspace, "bg.pid");
    // Ten-minute sleeps: only the kill can end this call within the test's time. The 2 s timeout
    // leaves a loaded machine room to start bash and print "started" first.
    const r = await bashTool.run(
      { command: `sleep 600 & echo $! > ${pidFile}; echo started; sleep 600` },
      makeCtx(dirs.workspace, { bashTimeoutSeconds: 2 }),
    );
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toBe("started\n[timed out after 2s; the process group was killed]");
    const bg = Number(readFileSync(pidFile, "utf8"));
    expect(await waitDead(bg, 10_000)).toBe(true);
  });

  it("escalates to SIGKILL when the group survives SIGTERM, after giving it SIGTERM first", async () => {
    const ready = join(dirs.workspace, "ready");
    const termed = join(dirs.workspace, "termed");
    const pidFile = join(dirs.workspace, "bash.pid");
    const ac = new AbortController();
    // The shell notes SIGTERM and carries on, so only SIGKILL ends it; the note proves the group
    // was asked politely first (a SIGKILL sent at once leaves no time for the handler).
    const p = bashTool.run(
      {
        command: `trap 'echo term >> ${termed}' TERM; echo $$ > ${pidFile}; touch ${ready}; while :; do sleep 1; done`,
      },
      makeCtx(dirs.workspace, { signal: ac.signal }),
    );
    while (!existsSync(ready)) await new Promise((r) => setTimeout(r, 20));
    ac.abort();
    const r = await p;
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toMatch(/cancelled/);
    expect(readFileSync(termed, "utf8")).toBe("term\n");
    expect(await waitDead(Number(readFileSync(pidFile, "utf8")), 10_000)).toBe(true);
  });

  it("cancels on abort and says so", async () => {
    const ac = new AbortController();
    const marker = join(dirs.workspace, "after");
    const p = bashTool.run(
      { command: `sleep 600; touch ${marker}` },
      makeCtx(dirs.workspace, { signal: ac.signal }),
    );
    setTimeout(() => ac.abort(), 100);
    const r = await p;
    expect(r.outcome).toBe("error");
    expect(textOf(r)).toMatch(/cancelled/);
    expect(existsSync(marker)).toBe(false);
  });

  it("caps output, keeping head and tail and counting the elided middle", async () => {
    const r = await bashTool.run(
      { command: "echo HEAD; head -c 100000 /dev/zero | tr '\\0' 'x'; echo; echo TAIL" },
      makeCtx(dirs.workspace),
    );
    const text = textOf(r);
    expect(text.startsWith("HEAD\nxxx")).toBe(true);
    expect(text.endsWith("xxx\nTAIL")).toBe(true);
    const m = /… \[(\d+) characters elided; to see all of it, send the output to a file[^\]]*\] …/.exec(text);
    expect(m).not.toBeNull();
    const total = 5 + 100000 + 1 + 5;
    expect(Number(m![1])).toBe(total - BASH_OUTPUT_CAP);
    expect(text.length).toBeLessThan(BASH_OUTPUT_CAP + 200);
  });

  it("does not wait for a background child that keeps the pipes open", async () => {
    const pidFile = join(dirs.workspace, "bg.pid");
    const r = await bashTool.run(
      { command: `sleep 600 & echo $! > ${pidFile}; echo done` },
      makeCtx(dirs.workspace),
    );
    expect(textOf(r)).toBe("done");
    // The answer came while the background child still runs: the tool did not wait for it.
    const bg = Number(readFileSync(pidFile, "utf8"));
    expect(alive(bg)).toBe(true);
    process.kill(bg, "SIGKILL");
  });

  it("lets a background child run while the session lives, and stops it before tern exits", async () => {
    const pidFile = join(dirs.workspace, "bg.pid");
    // The child ignores SIGTERM, so only the SIGKILL escalation ends it.
    const r = await bashTool.run(
      { command: `(trap '' TERM; sleep 600) & echo $! > ${pidFile}; echo serving` },
      makeCtx(dirs.workspace),
    );
    expect(textOf(r)).toBe("serving");
    const bg = Number(readFileSync(pidFile, "utf8"));
    expect(alive(bg)).toBe(true);
    await settleProcessKills();
    expect(alive(bg)).toBe(false);
  });
});
