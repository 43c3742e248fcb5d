// R-REC-4 / R-REC-9 / R-BASH-1 / §10 through the built CLI: one writer per session, signals as
// cancel with no command outliving tern, private files, complete-but-unknown last lines,
// empty records, `--image` of things that are not files.
import { execFileSync, spawn } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadRecord } from "../../src/record/load.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { killLeftovers, recordHas, recordText, runArgs, sessionDirs, startTern } from "./process-support.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";
import { running } from "../support/process-state.js";

const e = useE2E();
afterEach(killLeftovers);

const readPid = (name: string) => Number(readFileSync(join(e.dirs.workspace, name), "utf8").trim());
const fileExists = (name: string) => {
  try {
    return readFileSync(join(e.dirs.workspace, name), "utf8").trim() !== "";
  } catch {
    return false;
  }
};

/** A command whose child ignores SIGTERM, the way a careless daemon does. */
const STUBBORN = "(trap '' TERM; echo $BASHPID > child.pid; exec sleep 120) & wait";

async function firstSession(): Promise<string> {
  e.provider.enqueue(openaiText("first"));
  const r = await ternRun(e, [], "start");
  expect(r.code).toBe(0);
  return sessionDirs(e)[0];
}

describe("one writer per session (R-REC-9)", () => {
  it("a second `run --continue` on a live session exits 2 naming the pid and writes nothing", async () => {
    const dir = await firstSession();
    e.provider.enqueue(openaiToolCalls([{ id: "s", name: "bash", args: { command: "sleep 60" } }]));
    const a = startTern(e, runArgs(e, ["--continue", "--yes"], "long"));
    await a.waitFor(() => recordHas(dir, "tool_start", "s"), "the first tern's tool to start");
    const before = recordText(dir);
    const b = await e.run([...runArgs(e, ["--continue", "--yes"], "second")], { OPENAI_API_KEY: "x" });
    expect(b.code).toBe(2);
    expect(b.stderr.trim().split("\n")).toHaveLength(1);
    expect(b.stderr).toMatch(new RegExp(`in use by another tern \\(pid ${a.child.pid}\\)`));
    expect(recordText(dir)).toBe(before);
    expect(sessionDirs(e)).toHaveLength(1);
    // The first one is still the only writer: its turn ends cancelled, not "aborted" by anyone.
    a.child.kill("SIGINT");
    expect((await a.exit).code).toBe(130);
    const lines = loadRecord(join(dir, "record.jsonl")).lines;
    const seqs = lines.map((l) => l.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(lines.filter((l) => l.type === "turn_end").map((l: any) => l.stopReason)).toEqual([
      "completed",
      "cancelled",
    ]);
    // And the session stays usable.
    const exported = await e.run(["export", lines[0].type === "session_start" ? (lines[0] as any).id : ""]);
    expect(exported.code).toBe(0);
    e.provider.enqueue(openaiText("third"));
    expect((await ternRun(e, ["--continue"], "again")).end).toMatchObject({ stop_reason: "completed" });
  }, 90_000);

  it("a lock left by a process that is gone is taken over", async () => {
    const dir = await firstSession();
    const dead = Number(execFileSync("bash", ["-c", "sh -c 'echo $$'"]).toString().trim());
    expect(running(dead)).toBe(false);
    writeFileSync(join(dir, "lock"), `${dead}\n`);
    e.provider.enqueue(openaiText("resumed"));
    const r = await ternRun(e, ["--continue"], "go on");
    expect(r.end).toMatchObject({ stop_reason: "completed" });
  });

  it("a lock whose pid now belongs to another process (reused after a restart) is taken over", async () => {
    const dir = await firstSession();
    const stranger = spawn("sleep", ["60"], { stdio: "ignore" });
    try {
      const boot = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
      // The pid is alive, but it started long after the tern that wrote this lock.
      writeFileSync(join(dir, "lock"), `${stranger.pid} start=1 boot=${boot}\n`);
      e.provider.enqueue(openaiText("resumed"));
      const r = await ternRun(e, ["--continue"], "go on");
      expect(r.end).toMatchObject({ stop_reason: "completed" });
    } finally {
      stranger.kill("SIGKILL");
    }
  });
});

describe("SIGTERM and SIGHUP are a cancel (R-REC-4, R-BASH-1)", () => {
  for (const [sig, code] of [
    ["SIGTERM", 143],
    ["SIGHUP", 129],
  ] as const) {
    it(`${sig}: turn_end cancelled, exit ${code}, the running command's whole group is dead when tern exits`, async () => {
      e.provider.enqueue(openaiToolCalls([{ id: "d", name: "bash", args: { command: STUBBORN } }]));
      const t = startTern(e, runArgs(e, ["--yes"]));
      await t.waitFor(() => fileExists("child.pid"), "the stubborn child to start");
      const child = readPid("child.pid");
      t.child.kill(sig);
      const exit = await t.exit;
      expect(exit.code).toBe(code);
      expect(running(child)).toBe(false);
      const end = t.events().find((ev) => ev.type === "turn_end");
      expect(end).toMatchObject({ stop_reason: "cancelled" });
      const dir = sessionDirs(e)[0];
      const lines = loadRecord(join(dir, "record.jsonl")).lines as any[];
      expect(lines.find((l) => l.type === "turn_end")).toMatchObject({ stopReason: "cancelled" });
      expect(lines.find((l) => l.type === "tool_result" && l.id === "d").content[0].text).toMatch(
        /cancelled; the process group was killed/,
      );
    }, 60_000);
  }

  it("a process that left the command's group (setsid) dies with it too: on SIGTERM and at the end of a run", async () => {
    // One call still running when SIGTERM comes, its escapee ignoring SIGTERM.
    const escapee = (name: string) =>
      `setsid sh -c "trap '' TERM; echo \\$\\$ > ${name}.pid; exec sleep 120" &`;
    e.provider.enqueue(
      openaiToolCalls([{ id: "s", name: "bash", args: { command: `${escapee("running")} sleep 100` } }]),
    );
    const t = startTern(e, runArgs(e, ["--yes"]));
    await t.waitFor(() => fileExists("running.pid"), "the escapee to start");
    t.child.kill("SIGTERM");
    expect((await t.exit).code).toBe(143);
    expect(running(readPid("running.pid"))).toBe(false);
    // One call that finished, leaving its escapee behind: gone when tern exits.
    e.provider.enqueue(
      openaiToolCalls([{ id: "f", name: "bash", args: { command: `${escapee("left")} sleep 0.5` } }]),
      openaiText("done"),
    );
    const r = await ternRun(e, ["--yes"], "go", { timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    expect(fileExists("left.pid")).toBe(true);
    expect(running(readPid("left.pid"))).toBe(false);
  }, 90_000);

  it("a bash timeout just before the turn ends: tern exits only after the SIGKILL escalation", async () => {
    writeUserConfig(e, { bashTimeoutSeconds: 1 });
    e.provider.enqueue(
      openaiToolCalls([{ id: "t", name: "bash", args: { command: STUBBORN } }]),
      openaiText("done"),
    );
    const r = await ternRun(e, ["--yes"], "go", { timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    expect(r.events.find((ev) => ev.type === "tool_result").content).toMatch(/timed out after 1s/);
    expect(running(readPid("child.pid"))).toBe(false);
  });
});

describe("private files (R-REC-9)", () => {
  it("session folders are 0700, records, meta and ledger 0600", async () => {
    const dir = await firstSession();
    const mode = (p: string) => statSync(p).mode & 0o777;
    expect(mode(join(e.dirs.home, "sessions"))).toBe(0o700);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, "record.jsonl"))).toBe(0o600);
    expect(mode(join(dir, "meta.json"))).toBe(0o600);
    expect(mode(join(e.dirs.home, "ledger.db"))).toBe(0o600);
  });
});

describe("records that need care on resume (R-REC-4, R-REC-7)", () => {
  it("a complete last line of an unknown type is an error naming the line, and is not cut off", async () => {
    const dir = await firstSession();
    const file = join(dir, "record.jsonl");
    const seq = loadRecord(file).lines.length + 1;
    appendFileSync(file, `${JSON.stringify({ v: 1, seq, ts: new Date().toISOString(), type: "mystery" })}\n`);
    const before = readFileSync(file, "utf8");
    const r = await ternRun(e, ["--continue"], "go on");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`record\\.jsonl: line ${seq}: unknown record type "mystery"`));
    expect(readFileSync(file, "utf8")).toBe(before);
  });

  it("resuming an empty record writes a proper session_start first", async () => {
    const dir = await firstSession();
    writeFileSync(join(dir, "record.jsonl"), "");
    e.provider.enqueue(openaiText("fresh"));
    const r = await ternRun(e, ["--continue"], "hello again");
    expect(r.end).toMatchObject({ stop_reason: "completed" });
    const lines = loadRecord(join(dir, "record.jsonl")).lines as any[];
    expect(lines[0]).toMatchObject({ type: "session_start", seq: 1, model: "openai/mock-1" });
    expect(lines.map((l) => l.type)).toContain("user_prompt");
  });
});

describe("--image of something that is not a file (SPEC §10)", () => {
  it("a folder, a device and a FIFO: one line, exit 2, no hang, no session", async () => {
    mkdirSync(join(e.dirs.workspace, "pics"));
    execFileSync("mkfifo", [join(e.dirs.workspace, "fifo.png")]);
    for (const [target, kind] of [
      ["pics", "a directory"],
      ["/dev/zero", "a character device"],
      ["fifo.png", "a FIFO"],
    ]) {
      const r = await ternRun(e, ["--image", target], "look", { timeoutMs: 30_000 });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(2);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
      expect(r.stderr).toContain(`image ${target}: is ${kind}`);
    }
    expect(sessionDirs(e)).toHaveLength(0);
  });
});
