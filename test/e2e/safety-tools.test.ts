// R-TOOL-3 / R-TOOL-6 through the built CLI, the way a hostile or careless model attacks:
// special files, runaway regexes, huge outputs and arguments, 40 calls in one message,
// duplicate call ids, a finished result queued behind a slow call, terminal escape sequences.
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadRecord } from "../../src/record/load.js";
import { ripgrepPath } from "../../src/tools/builtin/ripgrep.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { killLeftovers, recordHas, runArgs, sessionDirs, startTern } from "./process-support.js";
import { recordLines, ternRun, toolMessages, useE2E } from "./tools-support.js";

const e = useE2E();
afterEach(killLeftovers);

const LIMIT = 30_000;
const resultOf = (events: any[], id: string) =>
  events.find((ev) => ev.type === "tool_result" && ev.id === id);

describe("special files (R-TOOL-6)", () => {
  it("refuses devices, FIFOs and folders at once: read_file and grep never hang or eat memory", async () => {
    const fifo = join(e.dirs.workspace, "pipe");
    execFileSync("mkfifo", [fifo]);
    const server = createServer().listen(join(e.dirs.workspace, "sock"));
    await once(server, "listening");
    e.provider.enqueue(
      openaiToolCalls([
        { id: "z", name: "read_file", args: { path: "/dev/zero" } },
        { id: "u", name: "read_file", args: { path: "/dev/urandom" } },
        { id: "f", name: "read_file", args: { path: "pipe" } },
        { id: "d", name: "read_file", args: { path: "." } },
        { id: "s", name: "read_file", args: { path: "sock" } },
        { id: "g", name: "grep", args: { pattern: "x", path: "pipe" } },
        { id: "gz", name: "grep", args: { pattern: "x", path: "/dev/zero" } },
        { id: "gw", name: "grep", args: { pattern: "x" } },
      ]),
      openaiText("done"),
    );
    const r = await ternRun(e, ["--yes"], "read them", { timeoutMs: 60_000 });
    expect(r.end).toMatchObject({ stop_reason: "completed" });
    expect(r.code).toBe(0);
    expect(resultOf(r.events, "z")).toMatchObject({ outcome: "error" });
    expect(resultOf(r.events, "z").content).toMatch(/character device.*refusing/);
    expect(resultOf(r.events, "u").content).toMatch(/character device/);
    expect(resultOf(r.events, "f").content).toMatch(/FIFO/);
    expect(resultOf(r.events, "d").content).toMatch(/is a directory/);
    expect(resultOf(r.events, "s").content).toMatch(/sock is a socket, not a regular file; refusing/);
    server.close();
    expect(resultOf(r.events, "g").content).toMatch(/FIFO.*regular files only/);
    expect(resultOf(r.events, "gz").content).toMatch(/character device/);
    // A FIFO met while walking the workspace is skipped, not opened.
    expect(resultOf(r.events, "gw")).toMatchObject({ outcome: "ok" });
  }, 120_000);
});

describe("grep is bounded (R-TOOL-6)", () => {
  const runaway = () => {
    writeFileSync(join(e.dirs.workspace, "a.txt"), `${"a".repeat(60)}!\n`);
    return { id: "re", name: "grep", args: { pattern: "^(a+)+$" } };
  };

  // The built-in engine (ripgrep hidden from the PATH): a JavaScript regex that backtracks.
  const builtin = { PATH: "/nonexistent-bin" };

  it("stops a catastrophically backtracking pattern with an error and the turn goes on", async () => {
    e.provider.enqueue(openaiToolCalls([runaway()]), openaiText("moved on"));
    const r = await ternRun(e, [], "search", { timeoutMs: 120_000, env: builtin });
    expect(resultOf(r.events, "re")).toMatchObject({ outcome: "error" });
    expect(resultOf(r.events, "re").content).toMatch(/grep stopped after \d+s without finishing/);
    expect(r.end).toMatchObject({ stop_reason: "completed" });
  }, 120_000);

  it("a cancel (SIGINT) stops a runaway grep: the turn ends cancelled, not by the grep timer", async () => {
    e.provider.enqueue(openaiToolCalls([runaway()]));
    const t = startTern(e, runArgs(e, []), builtin);
    const dir = () => sessionDirs(e)[0];
    await t.waitFor(() => !!dir() && recordHas(dir(), "tool_start", "re"), "grep to start");
    // Let the search reach the pattern (listing the few files takes far less than this).
    await new Promise((r) => setTimeout(r, 1500));
    t.child.kill("SIGINT");
    const exit = await t.exit;
    expect(exit.code).toBe(130);
    expect(resultOf(t.events(), "re").content).toBe("cancelled");
    expect(t.events().find((ev) => ev.type === "turn_end")).toMatchObject({ stop_reason: "cancelled" });
  }, 60_000);
});

describe.skipIf(!ripgrepPath())("grep through ripgrep (R-BIG-1)", () => {
  it("the same pattern ends at once: ripgrep's automata do not backtrack", async () => {
    writeFileSync(join(e.dirs.workspace, "a.txt"), `${"a".repeat(60)}!\n`);
    e.provider.enqueue(
      openaiToolCalls([{ id: "re", name: "grep", args: { pattern: "^(a+)+$" } }]),
      openaiText("moved on"),
    );
    const started = Date.now();
    const r = await ternRun(e, [], "search");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(resultOf(r.events, "re").content).toMatch(/^No matches for/);
  });
});

describe("file listings are bounded (R-TOOL-6)", () => {
  it("a cancel stops grep and glob walking the whole filesystem", async () => {
    e.provider.enqueue(
      openaiToolCalls([
        { id: "wide", name: "grep", args: { pattern: "needle-that-is-nowhere", path: "/" } },
        { id: "all", name: "glob", args: { pattern: "**/*", path: "/" } },
      ]),
    );
    const t = startTern(e, runArgs(e, []));
    const dir = () => sessionDirs(e)[0];
    await t.waitFor(() => !!dir() && recordHas(dir(), "tool_start", "all"), "the walks to start");
    await new Promise((r) => setTimeout(r, 1000));
    t.child.kill("SIGINT");
    expect((await t.exit).code).toBe(130);
    expect(t.events().find((ev) => ev.type === "turn_end")).toMatchObject({ stop_reason: "cancelled" });
  }, 60_000);
});

describe("output limits (R-TOOL-6)", () => {
  it("caps a 4 MB read and a huge bad argument echoed in an error, with a note; the turn completes", async () => {
    const line = "x".repeat(999);
    writeFileSync(join(e.dirs.workspace, "big.txt"), `${line}\n`.repeat(4000));
    writeFileSync(join(e.dirs.workspace, "wide.txt"), `match ${"w".repeat(280)}\n`.repeat(200));
    const hugePath = `missing-${"p".repeat(150_000)}`;
    e.provider.enqueue(
      openaiToolCalls([
        { id: "big", name: "read_file", args: { path: "big.txt" } },
        { id: "bad", name: "read_file", args: { path: hugePath } },
        { id: "sh", name: "bash", args: { command: "head -c 3000000 /dev/zero | tr '\\0' y" } },
        { id: "gr", name: "grep", args: { pattern: "match", path: "wide.txt" } },
      ]),
      openaiText("read it"),
    );
    const r = await ternRun(e, ["--yes"], "read", { timeoutMs: 60_000 });
    expect(r.end).toMatchObject({ stop_reason: "completed" });
    const big = resultOf(r.events, "big").content as string;
    expect(big.length).toBeLessThanOrEqual(LIMIT);
    expect(big).toMatch(/characters elided; read the rest with read_file offset\/limit/);
    expect(big.startsWith("     1\t")).toBe(true);
    const bad = resultOf(r.events, "bad");
    expect(bad.outcome).toBe("error");
    expect(bad.content.length).toBeLessThanOrEqual(LIMIT);
    expect(bad.content).toMatch(/^Cannot read missing-ppp.*characters elided/s);
    // bash keeps head and tail in bounded memory and says how to get everything.
    const sh = resultOf(r.events, "sh").content as string;
    expect(sh.length).toBeLessThanOrEqual(LIMIT + 200);
    expect(sh).toMatch(/characters elided; to see all of it, send the output to a file/);
    // Any other result over the limit: the full text is kept in a file under the session folder.
    const gr = resultOf(r.events, "gr").content as string;
    expect(gr.length).toBeLessThanOrEqual(LIMIT);
    const saved = /the full output is in (\S+);/.exec(gr)?.[1];
    expect(saved?.startsWith(e.dirs.home)).toBe(true);
    expect(readFileSync(saved!, "utf8").split("\n")).toHaveLength(200);
    // The model got exactly the capped values.
    const sent = toolMessages(e.provider.requests[1].body);
    expect(sent.map((m) => m.content.length).every((n) => n <= LIMIT)).toBe(true);
  }, 120_000);
});

describe("concurrency and commits (R-TOOL-3)", () => {
  it("40 calls in one message: never more than 8 running at once, every call answered in order", async () => {
    // Each call registers itself in run/, counts the running ones, and stays a while.
    const cmd = "mkdir -p run; touch run/$$; ls run | wc -l >> counts; sleep 0.3; rm run/$$";
    const calls = Array.from({ length: 40 }, (_, i) => ({
      id: `k${i}`,
      name: "bash",
      args: { command: cmd },
    }));
    e.provider.enqueue(openaiToolCalls(calls), openaiText("ok"));
    const r = await ternRun(e, ["--yes"], "go", { timeoutMs: 120_000 });
    expect(r.end).toMatchObject({ stop_reason: "completed", tool_calls: 40 });
    const counts = readFileSync(join(e.dirs.workspace, "counts"), "utf8").trim().split("\n").map(Number);
    expect(counts).toHaveLength(40);
    expect(Math.max(...counts)).toBeLessThanOrEqual(8);
    expect(Math.max(...counts)).toBeGreaterThan(1);
    expect(toolMessages(e.provider.requests[1].body).map((m) => m.id)).toEqual(calls.map((c) => c.id));
  }, 120_000);

  it("a finished result queued behind a slow call is committed at once: a crash keeps it", async () => {
    e.provider.enqueue(
      openaiToolCalls([
        { id: "slow", name: "bash", args: { command: "sleep 30" } },
        { id: "fast", name: "bash", args: { command: "echo quick" } },
      ]),
    );
    const t = startTern(e, runArgs(e, ["--yes"]));
    const dir = () => sessionDirs(e)[0];
    await t.waitFor(() => !!dir() && recordHas(dir(), "tool_result", "fast"), "fast's result in the record");
    t.child.kill("SIGKILL");
    await t.exit;
    e.provider.enqueue(openaiText("resumed"));
    const r = await ternRun(e, ["--continue"], "go on");
    expect(r.end).toMatchObject({ stop_reason: "completed" });
    const results = recordLines(e).filter((l) => l.type === "tool_result");
    expect(results.find((l) => l.id === "fast")).toMatchObject({ outcome: "ok" });
    expect(results.find((l) => l.id === "slow")).toMatchObject({ outcome: "interrupted" });
    // The resumed request presents the batch's results in call order.
    const sent = toolMessages(e.provider.requests[1].body);
    expect(sent.map((m) => m.id)).toEqual(["slow", "fast"]);
    expect(sent[1].content).toBe("quick");
  }, 90_000);

  it("duplicate tool-call ids in one message: each call gets one result and the next request is legal", async () => {
    writeFileSync(join(e.dirs.workspace, "n.txt"), "one\n");
    e.provider.enqueue(
      openaiToolCalls([
        { id: "same", name: "read_file", args: { path: "n.txt" } },
        { id: "same", name: "bash", args: { command: "echo second" } },
        { id: "same", name: "glob", args: { pattern: "*.txt" } },
      ]),
      openaiText("fine"),
    );
    const r = await ternRun(e, ["--yes"], "dup");
    expect(r.end).toMatchObject({ stop_reason: "completed", tool_calls: 3, tool_errors: 0 });
    const body = e.provider.requests[1].body;
    const assistant = body.messages.find((m: any) => m.role === "assistant");
    const ids = assistant.tool_calls.map((c: any) => c.id);
    expect(new Set(ids).size).toBe(3);
    const sent = toolMessages(body);
    expect(sent.map((m) => m.id)).toEqual(ids);
    expect(sent.map((m) => m.content)).toEqual(["     1\tone", "second", "n.txt"]);
    // The record loads cleanly: one result per call.
    const dir = sessionDirs(e)[0];
    expect(loadRecord(join(dir, "record.jsonl")).warnings).toEqual([]);
  });
});

describe("terminal control sequences (SPEC §10)", () => {
  it("text mode strips escape sequences from tool output and model text before printing", async () => {
    e.provider.enqueue(
      openaiToolCalls([
        {
          id: "esc",
          name: "bash",
          args: { command: "printf '\\033]0;PWNED\\007\\033[2J\\033[31mred\\n'; exit 3" },
        },
      ]),
      openaiText("final \u001b]52;c;cHduZWQ=\u0007text \u001b[1mbold"),
    );
    const r = await e.run(
      ["run", "--yes", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, "go"],
      { OPENAI_API_KEY: "x" },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/bash error: red/);
    expect(r.stderr).not.toMatch(/[\u001b\u0007]/);
    expect(r.stdout).toBe("final text bold\n");
    // The record keeps the exact output; the Markdown export, read in a terminal, is stripped.
    const id = basename(sessionDirs(e)[0]);
    expect(JSON.stringify(recordLines(e))).toContain("\\u001b]0;PWNED");
    const md = await e.run(["export", id, "--format", "md"]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain("red");
    expect(md.stdout).not.toMatch(/[\u001b\u0007]/);
  });
});
