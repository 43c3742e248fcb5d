import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as z from "zod/mini";
import { ApprovalPolicy } from "../../src/tools/policy/approval.js";
import { type BatchHooks, type PendingCall, ToolExecutor } from "../../src/tools/executor.js";
import { createBuiltinRegistry } from "../../src/tools/index.js";
import type { Tool, ToolResult } from "../../src/tools/types.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { makeCtx, textOf } from "./helpers.js";
import type { ToolCall } from "../../src/vocab/messages.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

let seq = 0;
const call = (name: string, args: unknown): ToolCall => ({
  id: `c${++seq}`,
  name,
  arguments: typeof args === "string" ? args : JSON.stringify(args),
});

interface Log {
  events: string[];
  asked: PendingCall[][];
  results: { id: string; index: number; result: ToolResult }[];
}

function hooks(
  answers: Record<string, "approved" | "denied" | "always"> = {},
  dflt: "approved" | "denied" = "approved",
) {
  const log: Log = { events: [], asked: [], results: [] };
  const h: BatchHooks = {
    async approve(calls) {
      log.asked.push(calls);
      return new Map(calls.map((c) => [c.id, answers[c.id] ?? dflt]));
    },
    onDecision: (id, d) => log.events.push(`decision ${id} ${d}`),
    onStart: (c) => log.events.push(`start ${c.id}`),
    onResult: (c, result, index) => {
      log.events.push(`result ${c.id}`);
      log.results.push({ id: c.id, index, result });
    },
  };
  return { h, log };
}

/** A test tool that waits `ms` and logs its start and end, on the path it names. */
function sleeper(events: string[]): Tool<{ path: string; ms: number; fail?: boolean }> {
  return {
    name: "sleeper",
    description: "test",
    schema: z.object({ path: z.string(), ms: z.number(), fail: z.optional(z.boolean()) }),
    kind: "read",
    paths: (a) => [a.path],
    async run(a) {
      events.push(`begin ${a.path}`);
      await new Promise((r) => setTimeout(r, a.ms));
      events.push(`end ${a.path}`);
      if (a.fail) throw new Error("tool bug");
      return { outcome: "ok", content: [{ type: "text", text: `slept ${a.ms} on ${a.path}` }] };
    },
  };
}

function setup(
  mode: "ask" | "auto-edit" | "yolo" = "yolo",
  parallel = true,
  allow: string[] = [],
  deny: string[] = [],
) {
  const registry = createBuiltinRegistry();
  const policy = new ApprovalPolicy({ mode, allow, deny, cwd: dirs.workspace });
  return { registry, policy, exec: new ToolExecutor(registry, policy, { parallel }) };
}

describe("ToolExecutor (R-TOOL-3)", () => {
  it("runs two edits of one file in order and a read of another alongside, results returned in call order", async () => {
    writeFileSync(join(dirs.workspace, "a.txt"), "x\n");
    writeFileSync(join(dirs.workspace, "b.txt"), "bee\n");
    const { exec } = setup("auto-edit");
    const ctx = makeCtx(dirs.workspace);
    const calls = [
      call("read_file", { path: "a.txt" }),
      call("edit_file", { path: "a.txt", old_string: "x", new_string: "y" }),
      call("edit_file", { path: join(dirs.workspace, "a.txt"), old_string: "y", new_string: "z" }),
      call("read_file", { path: "b.txt" }),
    ];
    const { h, log } = hooks();
    const results = await exec.runBatch(calls, ctx, h);
    expect(results.map((r) => r.outcome)).toEqual(["ok", "ok", "ok", "ok"]);
    expect(readFileSync(join(dirs.workspace, "a.txt"), "utf8")).toBe("z\n");
    // Handed over as each finished; each index once, with the value returned in call order.
    expect(log.results.map((r) => r.index).sort()).toEqual([0, 1, 2, 3]);
    for (const r of log.results) expect(r.result).toEqual(results[r.index]);
    expect(textOf(results[3])).toBe("     1\tbee");
    expect(log.asked).toEqual([]);
  });

  it("runs calls on different files concurrently and hands over each result as it finishes", async () => {
    const { registry, exec } = setup();
    const events: string[] = [];
    registry.register(sleeper(events));
    const { h, log } = hooks();
    const calls = [
      call("sleeper", { path: "slow", ms: 150 }),
      call("sleeper", { path: "fast", ms: 10 }),
      call("sleeper", { path: "slow", ms: 10 }),
    ];
    await exec.runBatch(calls, makeCtx(dirs.workspace), h);
    // fast ran while the first slow one was running; the second "slow" waited for the first.
    expect(events).toEqual(["begin slow", "begin fast", "end fast", "end slow", "begin slow", "end slow"]);
    // R-TOOL-3: committed on completion, so a crash keeps "fast" even while "slow" still runs.
    expect(log.results.map((r) => r.id)).toEqual([calls[1].id, calls[0].id, calls[2].id]);
    expect(log.results.map((r) => r.index)).toEqual([1, 0, 2]);
  });

  it("two reads of one folder (grep, glob) do not wait for each other: a folder names no file (R-BIG-1)", async () => {
    const { registry, exec } = setup();
    const events: string[] = [];
    registry.register(sleeper(events));
    const { h } = hooks();
    await exec.runBatch(
      [call("sleeper", { path: ".", ms: 150 }), call("sleeper", { path: ".", ms: 10 })],
      makeCtx(dirs.workspace),
      h,
    );
    expect(events).toEqual(["begin .", "begin .", "end .", "end ."]);
  });

  it("runs one after another when parallel is off", async () => {
    const { registry, exec } = setup("yolo", false);
    const events: string[] = [];
    registry.register(sleeper(events));
    const { h } = hooks();
    await exec.runBatch(
      [call("sleeper", { path: "a", ms: 60 }), call("sleeper", { path: "b", ms: 5 })],
      makeCtx(dirs.workspace),
      h,
    );
    expect(events).toEqual(["begin a", "end a", "begin b", "end b"]);
  });

  it("turns bad JSON, schema violations, unknown tools and thrown bugs into error results", async () => {
    const { registry, exec } = setup();
    const events: string[] = [];
    registry.register(sleeper(events));
    const { h, log } = hooks();
    const calls = [
      call("read_file", '{"path": '),
      call("read_file", { nope: 1 }),
      call("no_such_tool", {}),
      call("sleeper", { path: "p", ms: 1, fail: true }),
    ];
    const results = await exec.runBatch(calls, makeCtx(dirs.workspace), h);
    expect(results.map((r) => r.outcome)).toEqual(["error", "error", "error", "error"]);
    expect(textOf(results[0])).toMatch(/not valid JSON.*Received: \{"path": $/s);
    expect(textOf(results[1])).toMatch(/path/);
    expect(textOf(results[2])).toMatch(/Unknown tool 'no_such_tool'. Available tools: bash, read_file/);
    expect(textOf(results[3])).toBe("sleeper failed: tool bug");
    // Only the call that actually ran was started.
    expect(log.events.filter((e) => e.startsWith("start"))).toEqual([`start ${calls[3].id}`]);
  });
});

describe("ToolExecutor approval (R-TOOL-2)", () => {
  it("asks once for the whole batch before anything runs, and applies each answer", async () => {
    const { exec } = setup("ask");
    const calls = [
      call("bash", { command: "echo one" }),
      call("read_file", { path: "missing.txt" }),
      call("bash", { command: "echo two" }),
      call("write_file", { path: "w.txt", content: "hi" }),
    ];
    const { h, log } = hooks({ [calls[0].id]: "approved", [calls[2].id]: "denied", [calls[3].id]: "always" });
    const results = await exec.runBatch(calls, makeCtx(dirs.workspace), h);
    expect(log.asked).toHaveLength(1);
    expect(log.asked[0].map((p) => p.id)).toEqual([calls[0].id, calls[2].id, calls[3].id]);
    const firstStart = log.events.findIndex((e) => e.startsWith("start"));
    expect(log.events.slice(0, firstStart).filter((e) => e.startsWith("decision"))).toEqual([
      `decision ${calls[0].id} approved`,
      `decision ${calls[2].id} denied`,
      `decision ${calls[3].id} approved`,
    ]);
    expect(textOf(results[0])).toBe("one");
    expect(results[2]).toEqual({ outcome: "denied", content: [{ type: "text", text: "denied by user" }] });
    expect(results[3].outcome).toBe("ok");
    // "always" granted write_file on w.txt for the session.
    const again = hooks();
    await exec.runBatch(
      [call("write_file", { path: "w.txt", content: "x" })],
      makeCtx(dirs.workspace, { readTracker: makeCtx(dirs.workspace).readTracker }),
      again.h,
    );
    expect(again.log.asked).toEqual([]);
  });

  it("denies by rule without asking, naming the rule, even in yolo", async () => {
    const { exec } = setup("yolo", true, [], ["bash(rm *)"]);
    const { h, log } = hooks();
    const c = call("bash", { command: "ls; rm -rf ~" });
    const [r] = await exec.runBatch([c], makeCtx(dirs.workspace), h);
    expect(r).toEqual({ outcome: "denied", content: [{ type: "text", text: "denied by rule bash(rm *)" }] });
    expect(log.asked).toEqual([]);
    expect(log.events).toEqual([`decision ${c.id} denied`, `result ${c.id}`]);
  });

  it("passes the outside-workspace reason to the prompt", async () => {
    const { exec } = setup("auto-edit", true, ["write_file"]);
    const { h, log } = hooks({}, "denied");
    const target = join(dirs.root, "outside.txt");
    const [r] = await exec.runBatch(
      [call("write_file", { path: target, content: "x" })],
      makeCtx(dirs.workspace),
      h,
    );
    expect(r.outcome).toBe("denied");
    expect(log.asked[0][0].reason).toContain(target);
    const headless = { ...h, denialMessage: "denied: needs approval; rerun with --yes or an --allow rule" };
    const [r2] = await exec.runBatch(
      [call("write_file", { path: target, content: "x" })],
      makeCtx(dirs.workspace),
      headless,
    );
    expect(textOf(r2)).toBe("denied: needs approval; rerun with --yes or an --allow rule");
  });
});

describe("ToolExecutor cancellation", () => {
  it("kills the running call (interrupted, R-TOOL-4) and does not start the rest (not_executed)", async () => {
    const { exec } = setup("yolo", false);
    const ac = new AbortController();
    const ctx = makeCtx(dirs.workspace, { signal: ac.signal });
    const calls = [call("bash", { command: "sleep 30" }), call("bash", { command: "echo never" })];
    const { h, log } = hooks();
    setTimeout(() => ac.abort(), 100);
    const results = await exec.runBatch(calls, ctx, h);
    expect(results[0].outcome).toBe("interrupted");
    expect(textOf(results[0])).toMatch(/cancelled/);
    expect(results[1]).toEqual({
      outcome: "not_executed",
      content: [{ type: "text", text: "not executed: cancelled by user" }],
    });
    expect(log.events.filter((e) => e.startsWith("start"))).toEqual([`start ${calls[0].id}`]);
  });
});
