// jobs/ on its own: the bounded regex stops a runaway pattern, and a real job (spawned through
// the bash tool's path) is read, waited on, written to and stopped, its full output in its log,
// a long read cut to its head and tail.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobTable } from "../../src/jobs/job-table.js";
import { READ_BYTES } from "../../src/jobs/job.js";
import { BoundedPattern, PatternError } from "../../src/jobs/pattern.js";
import { copyOutput } from "../../src/tools/builtin/job-tools.js";
import { registerSecret } from "../../src/config/secrets.js";
import { settleProcessKills, spawnShell, stopGroup } from "../../src/tools/builtin/process-groups.js";
import { running } from "../support/process-state.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

describe("BoundedPattern", () => {
  it("rejects an invalid regex with its reason", () => {
    expect(() => new BoundedPattern("(open")).toThrow(PatternError);
    expect(() => new BoundedPattern("(open")).toThrow(/invalid regex "\(open"/);
  });

  it("stops a pattern that backtracks without end", () => {
    const p = new BoundedPattern("^(a|a)*c$");
    expect(() => p.test(`${"a".repeat(40)}b`)).toThrow(/ran too long/);
  });

  it("matches per line (multiline)", () => {
    expect(new BoundedPattern("^listening on \\d+$").test("starting\nlistening on 80\nmore")).toBe(true);
  });
});

describe("a real job", () => {
  let dirs: TempDirs;
  let table: JobTable;
  beforeEach(() => {
    dirs = makeTempDirs();
    table = new JobTable({
      logDir: join(dirs.home, "jobs"),
    });
  });
  afterEach(async () => {
    await table.endAll();
    await settleProcessKills();
    dirs.cleanup();
  });

  function start(command: string) {
    const slot = table.open();
    const { child, tag } = spawnShell(command, dirs.workspace, undefined, undefined, { stdin: "pipe" });
    const drained = copyOutput(slot.log, child);
    return table.add(slot, command, { child, tag, stop: () => stopGroup(child.pid!, tag), drained });
  }

  it("reads only new output, waits for a line, takes input, and logs everything", async () => {
    const job = start(`echo one; while read line; do echo "got $line"; done`);
    const signal = new AbortController().signal;
    const first = await job.read(new BoundedPattern("one"), 10_000, signal);
    expect(first).toMatchObject({ text: "one\n", waited: "match", state: { kind: "running" } });
    expect(await job.read(undefined, 0, signal)).toMatchObject({ text: "", waited: "none" });
    expect(await job.write("ping\n")).toBeNull();
    expect((await job.read(new BoundedPattern("got ping"), 10_000, signal)).text).toBe("got ping\n");
    const timedOut = await job.read(new BoundedPattern("never"), 50, signal);
    expect(timedOut.waited).toBe("timeout");
    await job.stop("killed");
    expect(job.state).toEqual({ kind: "exited", status: "SIGTERM", reason: "killed" });
    expect(running(job.pid)).toBe(false);
    expect(await job.write("late\n")).toMatch(/job-1 has exited SIGTERM: its stdin is closed/);
    expect(readFileSync(job.log, "utf8")).toBe("one\ngot ping\n");
  });

  it("a line whose end could begin a key still reaches a reader while the job waits for input", async () => {
    // The redactor holds back "Zq9x" (it may start the key below) until the next output shows it
    // is not one; this job prints no more until it gets input, so the held tail must not wait for it.
    registerSecret("Zq9x-job-held-tail-secret");
    const job = start(`printf 'ready Zq9x'; read line; echo "got $line"`);
    const signal = new AbortController().signal;
    const first = await job.read(new BoundedPattern("ready Zq9x"), 10_000, signal);
    expect(first).toMatchObject({ text: "ready Zq9x", waited: "match" });
    await job.stop("killed");
  });

  it("reports its end to the table's listeners, and ids continue after a resumed record's", async () => {
    table = new JobTable({
      logDir: join(dirs.home, "jobs"),
      earlier: [{ id: "job-4", command: "old" }],
    });
    const seen: string[] = [];
    table.watch({
      onStart: (j) => seen.push(`start ${j.id}`),
      onEnd: (j) => seen.push(`end ${j.id} ${j.state.kind}`),
    });
    const job = start("exit 3");
    expect(job.id).toBe("job-5");
    await job.ended;
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(["start job-5", "end job-5 exited"]);
    expect(job.state).toEqual({ kind: "exited", status: 3, reason: "exited" });
    expect(table.find("job-4")).toMatch(/job-4 \(old\) ended with the last run/);
    expect(table.find("job-9")).toMatch(/no job "job-9"; jobs: job-5/);
    expect(existsSync(job.log)).toBe(true);
  });

  it("a flood is read as its head and tail, the middle left in the log", async () => {
    const job = start("seq 1 200000");
    await job.ended;
    const read = await job.read(undefined, 0, new AbortController().signal);
    expect(read.text.length + read.tail.length).toBeLessThanOrEqual(READ_BYTES);
    expect(read.text.startsWith("1\n2\n3\n")).toBe(true);
    expect(read.tail.endsWith("199999\n200000\n")).toBe(true);
    expect(read.elided).toBe(readFileSync(job.log).length - READ_BYTES);
    // A pattern still finds a line in the middle, scanned from the log in bounded pieces.
    const again = start("seq 1 200000; sleep 30");
    const found = await again.read(new BoundedPattern("^123456$"), 10_000, new AbortController().signal);
    expect(found.waited).toBe("match");
  });

  it("endAll stops a job that ignores SIGTERM (SIGKILL after the grace time)", async () => {
    const job = start("trap '' TERM; echo up; sleep 300");
    await job.nextOutput(5000);
    await table.endAll();
    expect(job.state).toMatchObject({ kind: "exited", status: "SIGKILL", reason: "session_ended" });
    expect(running(job.pid)).toBe(false);
  });
});
