// R-JOB-1/-2 end to end: a scripted model starts a real HTTP server as a background job through
// `tern run`, waits for its "listening" line, fetches from it with a bash call, writes to its
// stdin and kills it; and whatever way the run ends (its end, SIGTERM), nothing it started is
// left: checked by pid and by effect (the port no longer answers).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { running } from "../support/process-state.js";
import { killLeftovers, runArgs, startTern } from "./process-support.js";
import { recordLines, ternRun, useE2E } from "./tools-support.js";

const e = useE2E();
afterEach(killLeftovers);

// Prints its port once listening, writes it to `name`.port, echoes what it reads on stdin.
const SERVER = `
const http = require("http");
const fs = require("fs");
const name = process.argv[2];
const server = http.createServer((req, res) => res.end("hello from " + name));
server.listen(0, "127.0.0.1", () => {
  const port = server.address().port;
  fs.writeFileSync(name + ".port", String(port));
  console.log("listening on " + port);
});
process.stdin.on("data", (d) => console.log("got " + d.toString().trim()));
`;

const FETCH = (name: string) =>
  `node -e "fetch('http://127.0.0.1:' + require('fs').readFileSync('${name}.port', 'utf8')).then((r) => r.text()).then((t) => console.log('body: ' + t))"`;

function writeServer(): void {
  writeFileSync(join(e.dirs.workspace, "server.js"), SERVER);
}

const file = (name: string) => join(e.dirs.workspace, name);
const portOf = (name: string) => Number(readFileSync(file(`${name}.port`), "utf8"));

/** Whether something accepts connections on the port (the server's effect). */
function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

/** One model round starting background jobs, `[call id, command]` each. */
const startJobs = (...jobs: [string, string][]) =>
  openaiToolCalls(
    jobs.map(([id, command]) => ({ id, name: "bash", args: { command, run_in_background: true } })),
  );

const resultOf = (events: any[], id: string) =>
  events.find((ev) => ev.type === "tool_result" && ev.id === id);
const pidsOf = (events: any[]) =>
  events.filter((ev) => ev.type === "job_start").map((ev) => ev.pid as number);

describe("background jobs (R-JOB-1)", () => {
  it("starts a server, waits for its line, is fetched from, takes input, and is killed", async () => {
    writeServer();
    e.provider.enqueue(
      openaiToolCalls([
        { id: "start", name: "bash", args: { command: "node server.js a", run_in_background: true } },
      ]),
      openaiToolCalls([
        {
          id: "wait",
          name: "job_output",
          args: { id: "job-1", wait_for: "listening on \\d+", timeout_seconds: 30 },
        },
      ]),
      openaiToolCalls([{ id: "fetch", name: "bash", args: { command: FETCH("a") } }]),
      openaiToolCalls([{ id: "input", name: "job_input", args: { id: "job-1", text: "ping\n" } }]),
      openaiToolCalls([
        { id: "echo", name: "job_output", args: { id: "job-1", wait_for: "got ping", timeout_seconds: 30 } },
      ]),
      openaiToolCalls([{ id: "kill", name: "job_kill", args: { id: "job-1" } }]),
      openaiText("done"),
    );
    const r = await ternRun(e, ["--yes"], "do it", { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const start = resultOf(r.events, "start");
    expect(start).toMatchObject({ outcome: "ok" });
    expect(start.content).toMatch(/Started job-1 in the background \(pid \d+\)/);
    expect(resultOf(r.events, "wait").content).toMatch(/^\[job-1 running; pid \d+\]/);
    expect(
      r.events
        .filter((ev) => ev.type === "tool_result")
        .map((ev) => ev.content)
        .join("\n"),
    ).toMatch(/listening on \d+/);
    expect(resultOf(r.events, "fetch")).toMatchObject({ outcome: "ok", content: "body: hello from a" });
    expect(resultOf(r.events, "input")).toMatchObject({ outcome: "ok" });
    expect(resultOf(r.events, "echo").content).toMatch(/got ping/);
    expect(resultOf(r.events, "kill").content).toMatch(/job-1 was stopped\n\[job-1 exited SIGTERM\]/);
    const [pid] = pidsOf(r.events);
    expect(r.events.find((ev) => ev.type === "job_start")).toMatchObject({
      id: "job-1",
      command: "node server.js a",
    });
    expect(r.events.find((ev) => ev.type === "job_end")).toMatchObject({
      id: "job-1",
      status: "SIGTERM",
      reason: "killed",
    });
    const lines = recordLines(e);
    expect(lines.find((l) => l.type === "job_start")).toMatchObject({
      id: "job-1",
      pid,
      log: "jobs/job-1.log",
    });
    expect(lines.find((l) => l.type === "job_end")).toMatchObject({ id: "job-1", reason: "killed" });
    expect(running(pid)).toBe(false);
    expect(await answers(portOf("a"))).toBe(false);
  }, 90_000);

  it("bad input: an unknown id, an invalid or runaway regex, a flood, input to a closed stdin", async () => {
    e.provider.enqueue(
      openaiToolCalls([
        {
          id: "flood",
          name: "bash",
          args: { command: "sleep 1.2; yes aaaaaaaaaaaaaaaa | head -c 20000000", run_in_background: true },
        },
        {
          id: "closed",
          name: "bash",
          args: { command: "exec 0<&-; echo ready; sleep 30", run_in_background: true },
        },
        {
          id: "slow",
          name: "bash",
          args: {
            command: "sleep 1.2; printf 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab'; sleep 30",
            run_in_background: true,
          },
        },
      ]),
      openaiToolCalls([
        { id: "unknown", name: "job_output", args: { id: "job-9" } },
        { id: "invalid", name: "job_output", args: { id: "job-1", wait_for: "(unclosed" } },
        {
          id: "runaway",
          name: "job_output",
          args: { id: "job-3", wait_for: "^(a|a)*c$", timeout_seconds: 5 },
        },
        { id: "drained", name: "job_output", args: { id: "job-1", timeout_seconds: 60 } },
        { id: "write", name: "job_input", args: { id: "job-2", text: "hello\n" } },
        { id: "toolong", name: "job_output", args: { id: "job-2", timeout_seconds: 601 } },
      ]),
      openaiText("done"),
    );
    const r = await ternRun(e, ["--yes"], "do it", { timeoutMs: 90_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(resultOf(r.events, "unknown")).toMatchObject({ outcome: "error" });
    expect(resultOf(r.events, "unknown").content).toMatch(/no job "job-9"; jobs: job-1, job-2, job-3/);
    expect(resultOf(r.events, "invalid")).toMatchObject({ outcome: "error" });
    expect(resultOf(r.events, "invalid").content).toMatch(/invalid regex "\(unclosed"/);
    expect(resultOf(r.events, "runaway"), resultOf(r.events, "runaway").content).toMatchObject({
      outcome: "error",
    });
    expect(resultOf(r.events, "runaway").content).toMatch(/ran too long/);
    const drained = resultOf(r.events, "drained");
    expect(drained.outcome).toBe("ok");
    expect(drained.content).toMatch(/^\[job-1 exited 0\]/);
    expect(drained.content).toMatch(/bytes elided; the full log is .*job-1\.log: read it with read_file/);
    expect(drained.content.length).toBeLessThanOrEqual(30_000);
    expect(resultOf(r.events, "write")).toMatchObject({ outcome: "error" });
    expect(resultOf(r.events, "write").content).toMatch(/job-2's stdin is closed/);
    expect(resultOf(r.events, "toolong")).toMatchObject({ outcome: "error" });
    // The full flood is in the log under the session folder.
    const log = recordLines(e).find((l) => l.type === "job_start" && l.id === "job-1").log;
    expect(log).toBe("jobs/job-1.log");
    for (const pid of pidsOf(r.events)) expect(running(pid)).toBe(false);
  }, 120_000);
});

describe("jobs end with their session (R-JOB-2)", () => {
  it("the end of tern run stops every job, one that ignores SIGTERM too; a resume names them", async () => {
    writeServer();
    e.provider.enqueue(
      startJobs(["a", "node server.js a"], ["b", "trap '' TERM; echo $$ > stubborn.pid; sleep 300"]),
      openaiToolCalls([
        { id: "w", name: "job_output", args: { id: "job-1", wait_for: "listening", timeout_seconds: 30 } },
      ]),
      openaiText("left them running"),
    );
    const r = await ternRun(e, ["--yes"], "do it", { timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
    const pids = pidsOf(r.events);
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(running(pid)).toBe(false);
    expect(await answers(portOf("a"))).toBe(false);
    const ends = r.events.filter((ev) => ev.type === "job_end");
    expect(ends.map((ev) => [ev.id, ev.reason]).sort()).toEqual([
      ["job-1", "session_ended"],
      ["job-2", "session_ended"],
    ]);
    expect(ends.find((ev) => ev.id === "job-2").status).toBe("SIGKILL");
    // The next run of the session says so, and the model's old id gets a clear error.
    e.provider.enqueue(
      openaiToolCalls([{ id: "old", name: "job_output", args: { id: "job-1" } }]),
      openaiText("ok"),
    );
    const again = await ternRun(e, ["--continue", "--yes"], "again");
    expect(again.code, again.stderr).toBe(0);
    const notice = again.events.find((ev) => ev.type === "notice" && /ended with the last run/.test(ev.text));
    expect(notice.text).toMatch(/job-1 \(node server\.js a\), job-2/);
    expect(resultOf(again.events, "old")).toMatchObject({ outcome: "error" });
    expect(resultOf(again.events, "old").content).toMatch(
      /job-1 \(node server\.js a\) ended with the last run/,
    );
  }, 90_000);

  it("SIGTERM to tern stops every job's group and what escaped it before tern exits", async () => {
    writeServer();
    e.provider.enqueue(
      startJobs(
        ["a", "node server.js a"],
        ["b", "setsid sh -c 'echo $$ > escaped.pid; exec sleep 300' & sleep 300"],
      ),
      openaiToolCalls([{ id: "long", name: "bash", args: { command: "sleep 60" } }]),
    );
    const t = startTern(e, runArgs(e, ["--yes"]));
    await t.waitFor(
      () =>
        existsSync(file("a.port")) &&
        existsSync(file("escaped.pid")) &&
        t.events().some((ev) => ev.type === "tool_call" && ev.id === "long"),
      "both jobs and the long call",
    );
    const port = portOf("a");
    expect(await answers(port)).toBe(true);
    const escaped = Number(readFileSync(file("escaped.pid"), "utf8"));
    const pids = pidsOf(t.events());
    t.child.kill("SIGTERM");
    expect((await t.exit).code).toBe(143);
    for (const pid of [...pids, escaped]) expect(running(pid)).toBe(false);
    expect(await answers(port)).toBe(false);
    const ends = t.events().filter((ev) => ev.type === "job_end");
    expect(ends.map((ev) => ev.reason)).toEqual(["session_ended", "session_ended"]);
  }, 90_000);
});

/** Every live process's command line (arguments joined by NUL). */
function commandLines(): string[] {
  return readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n) && running(Number(n)))
    .flatMap((n) => {
      try {
        return [readFileSync(`/proc/${n}/cmdline`, "latin1")];
      } catch {
        return [];
      }
    });
}

describe("a crash (R-JOB-2)", () => {
  it("a job that outlived a SIGKILLed tern is stopped by the session's resume, found by its tag", async () => {
    writeServer();
    e.provider.enqueue(
      startJobs(["a", "node server.js a"]),
      // A long wait that starts no process of its own: only the job is left when tern is killed.
      openaiToolCalls([
        { id: "long", name: "job_output", args: { id: "job-1", wait_for: "never", timeout_seconds: 60 } },
      ]),
    );
    const t = startTern(e, runArgs(e, ["--yes"]));
    await t.waitFor(
      () =>
        existsSync(file("a.port")) && t.events().some((ev) => ev.type === "tool_call" && ev.id === "long"),
      "the job and the long call",
    );
    const [pid] = pidsOf(t.events());
    t.child.kill("SIGKILL");
    await t.exit;
    // Nothing could stop it: it runs on, orphaned.
    expect(running(pid)).toBe(true);
    expect(await answers(portOf("a"))).toBe(true);
    e.provider.enqueue(openaiText("back"));
    const again = await ternRun(e, ["--continue", "--yes"], "again");
    expect(again.code, again.stderr).toBe(0);
    expect(running(pid)).toBe(false);
    expect(await answers(portOf("a"))).toBe(false);
    expect(
      again.events.find((ev) => ev.type === "notice" && /ended with the last run/.test(ev.text)).text,
    ).toMatch(/job-1 \(node server\.js a\)/);
    expect(recordLines(e).find((l) => l.type === "job_end")).toMatchObject({
      id: "job-1",
      reason: "session_ended",
    });
  }, 90_000);
});

const bwrapWorks =
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-pid", "--unshare-net", "--", "true"]).status === 0;

describe.skipIf(!bwrapWorks)("a job in the sandbox (R-SBX, R-JOB-1)", () => {
  it("runs inside it as a bash call would (no asking, writes outside refused) and ends with the run", async () => {
    const home = join(e.dirs.root, "user-home");
    mkdirSync(home, { recursive: true });
    mkdirSync(join(e.dirs.root, "tmp"), { recursive: true });
    e.provider.enqueue(
      startJobs([
        "s",
        'echo $$ > inner.pid; echo x > "$HOME/pwned" 2>/dev/null || echo blocked; sleep 301.5',
      ]),
      openaiToolCalls([
        { id: "w", name: "job_output", args: { id: "job-1", wait_for: "blocked", timeout_seconds: 30 } },
      ]),
      openaiText("done"),
    );
    const r = await ternRun(e, ["--sandbox", "workspace-write"], "do it", {
      env: { HOME: home, TMPDIR: join(e.dirs.root, "tmp") },
      timeoutMs: 60_000,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.events.filter((ev) => ev.type === "approval")).toEqual([]);
    expect(resultOf(r.events, "w").content).toMatch(/blocked/);
    expect(existsSync(join(home, "pwned"))).toBe(false);
    expect(recordLines(e).find((l) => l.type === "tool_result" && l.id === "s")).toMatchObject({
      sandboxed: true,
    });
    for (const pid of pidsOf(r.events)) expect(running(pid)).toBe(false);
    // The job's own processes live in the sandbox's pid namespace: found by their command line.
    expect(commandLines().filter((c) => c.includes("sleep\u0000301.5"))).toEqual([]);
    expect(r.events.find((ev) => ev.type === "job_end")).toMatchObject({ reason: "session_ended" });
  }, 60_000);
});
