// R-REC-4 / R-REC-3 end to end: SIGKILL a real `tern run --json --yes` at many points of a
// multi-round tool-using turn (the test decides when, never tern), then check that nothing
// committed was lost and that `tern run --continue` sends a legal request and completes.
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRecord } from "../../src/record/load.js";
import { cliEnv, jsonEvents, runCli, TERN_BIN } from "../support/cli.js";
import { FakeProvider, type ScriptedResponse } from "../support/fake-provider.js";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

interface Probe {
  events: any[];
  record: string;
  requests: number;
}

interface KillPoint {
  name: string;
  /** Responses after round 1 (round 1 always runs one quick bash call to make the turn multi-round). */
  script: ScriptedResponse[];
  /** Kill as soon as this holds. */
  when(p: Probe): boolean;
  /** Expected outcome of each call left without a result at the kill, by id. */
  owed: Record<string, "interrupted" | "not_executed">;
  /** The turn was cut (false: the kill came after turn_end). */
  cut: boolean;
}

const has = (p: Probe, pred: (e: any) => boolean) => p.events.some(pred);
const recordHas = (p: Probe, type: string, id?: string) =>
  p.record
    .split("\n")
    .some((l) => l.includes(`"type":"${type}"`) && (id === undefined || l.includes(`"id":"${id}"`)));

const POINTS: KillPoint[] = [
  {
    name: "before the response (request sent, server silent)",
    script: [openaiStream().text("never seen").finish("stop").stallAfter(0).build()],
    when: (p) => p.requests === 2 && recordHas(p, "tool_result", "r1"),
    owed: {},
    cut: true,
  },
  {
    name: "mid-stream (after some text frames)",
    script: [
      openaiStream().text("partial ").text("answer ").text("more").finish("stop").stallAfter(3).build(),
    ],
    when: (p) => has(p, (e) => e.type === "text_delta" && e.text === "answer "),
    owed: {},
    cut: true,
  },
  {
    name: "mid-tool (bash sleep 5 running)",
    script: [openaiToolCalls([{ id: "s1", name: "bash", args: { command: "sleep 5" } }])],
    when: (p) => has(p, (e) => e.type === "tool_call" && e.id === "s1") && recordHas(p, "tool_start", "s1"),
    owed: { s1: "interrupted" },
    cut: true,
  },
  {
    name: "between results (first of three sequential calls done)",
    script: [
      openaiToolCalls([
        { id: "b1", name: "bash", args: { command: "echo first" } },
        { id: "b2", name: "bash", args: { command: "sleep 5" } },
        { id: "b3", name: "bash", args: { command: "echo third" } },
      ]),
    ],
    when: (p) => has(p, (e) => e.type === "tool_result" && e.id === "b1") && recordHas(p, "tool_start", "b2"),
    owed: { b2: "interrupted", b3: "not_executed" },
    cut: true,
  },
  {
    name: "between an assistant message and its tool_start",
    // The second call of a sequential batch has not started when the first (a sleep) is killed.
    script: [
      openaiToolCalls([
        { id: "n1", name: "bash", args: { command: "sleep 5" } },
        { id: "n2", name: "read_file", args: { path: "seed.txt" } },
      ]),
    ],
    when: (p) => recordHas(p, "tool_start", "n1"),
    owed: { n1: "interrupted", n2: "not_executed" },
    cut: true,
  },
  {
    name: "right after turn_end",
    script: [openaiText("all done")],
    // The record line comes before the ledger write and the event, so the kill lands before exit.
    when: (p) => recordHas(p, "turn_end"),
    owed: {},
    cut: false,
  },
];

let provider: FakeProvider;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  provider = await FakeProvider.start();
});
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await provider.close();
});

function recordFileOf(home: string): string {
  const root = join(home, "sessions");
  const files = readdirSync(root).flatMap((ws) =>
    readdirSync(join(root, ws)).map((id) => join(root, ws, id, "record.jsonl")),
  );
  expect(files).toHaveLength(1);
  return files[0];
}

const readOr = (file: () => string) => {
  try {
    return readFileSync(file(), "utf8");
  } catch {
    return "";
  }
};

/** Runs tern until `when` holds, then SIGKILLs it. Returns its stdout events and the record after the kill. */
async function runAndKill(
  dirs: TempDirs,
  args: string[],
  when: (p: Probe) => boolean,
  requestsBefore: number,
) {
  const child = spawn(process.execPath, [TERN_BIN, ...args], {
    cwd: dirs.workspace,
    env: cliEnv(dirs.home, { OPENAI_API_KEY: "x" }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<NodeJS.Signals | null>((resolve) =>
    child.on("exit", (_code, signal) => resolve(signal)),
  );
  const deadline = Date.now() + 15_000;
  let seen = "";
  for (;;) {
    const complete = stdout.slice(0, stdout.lastIndexOf("\n") + 1);
    const probe: Probe = {
      events: jsonEvents(complete),
      record: readOr(() => recordFileOf(dirs.home)),
      requests: provider.requests.length - requestsBefore,
    };
    seen = probe.record;
    if (when(probe)) break;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`kill point never reached (exit ${child.exitCode})\n${stdout}\n${stderr}`);
    await new Promise((r) => setTimeout(r, 5));
  }
  child.kill("SIGKILL");
  const signal = await exited;
  children.delete(child);
  return { signal, seen, events: jsonEvents(stdout.slice(0, stdout.lastIndexOf("\n") + 1)) };
}

/** Every assistant tool call is answered by the tool messages right after it; one system message, first. */
function expectLegal(messages: any[]): void {
  expect(messages[0].role).toBe("system");
  expect(messages.slice(1).filter((m) => m.role === "system")).toEqual([]);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i];
    if (m.role === "tool") {
      // A tool message belongs to the nearest preceding assistant with calls, with only tool messages between.
      let j = i - 1;
      while (messages[j].role === "tool") j--;
      expect(messages[j].role).toBe("assistant");
      expect((messages[j].tool_calls ?? []).map((c: any) => c.id)).toContain(m.tool_call_id);
    }
    if (m.role !== "assistant" || !m.tool_calls?.length) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < messages.length && messages[j].role === "tool"; j++)
      answered.add(messages[j].tool_call_id);
    for (const call of m.tool_calls) expect(answered, `call ${call.id} answered`).toContain(call.id);
  }
}

describe("SIGKILL at any point loses nothing committed and resumes legally (R-REC-4)", () => {
  it.each(POINTS.map((p) => [p.name, p] as const))("kill %s", async (_name, point) => {
    const dirs = makeTempDirs("tern-kill-");
    try {
      writeFileSync(join(dirs.workspace, "seed.txt"), "seed\n");
      // Sequential tools make "not yet started" calls deterministic; fast retries keep a stray retry short.
      writeFileSync(
        join(dirs.home, "config.json"),
        JSON.stringify({ parallelTools: false, retry: { baseDelaySeconds: 0.01, maxRetries: 1 } }),
      );
      const before = provider.requests.length;
      provider.enqueue(
        openaiToolCalls([{ id: "r1", name: "bash", args: { command: "echo round-one" } }]),
        ...point.script,
      );
      const base = ["--model", "openai/mock-1", "--base-url", provider.baseUrl];
      const { events, signal, seen } = await runAndKill(
        dirs,
        ["run", "--json", "--yes", ...base, "do it"],
        point.when,
        before,
      );
      // After turn_end tern may win the race and exit by itself; every other point is a real kill.
      if (point.cut || signal !== null) expect(signal).toBe("SIGKILL");
      // Nothing left in the queue for the resume to pick up by mistake.
      expect(provider.pending).toBe(0);

      const file = recordFileOf(dirs.home);
      const afterKill = readFileSync(file, "utf8");
      expect(afterKill.startsWith(seen)).toBe(true);
      const killed = loadRecord(file);
      expect(killed.warnings).toEqual([]);
      const lines = killed.lines;
      // Whatever tern reported as committed is in the record.
      for (const e of events.filter((x) => x.type === "tool_result"))
        expect(lines.some((l) => l.type === "tool_result" && l.id === e.id)).toBe(true);
      const assistants = lines.filter((l) => l.type === "assistant_message");
      expect(assistants).toHaveLength(events.filter((e) => e.type === "assistant_message").length);
      const answered = new Set(lines.flatMap((l) => (l.type === "tool_result" ? [l.id] : [])));
      const started = new Set(lines.flatMap((l) => (l.type === "tool_start" ? [l.id] : [])));
      const open = assistants.flatMap((a) => a.toolCalls.map((c) => c.id)).filter((id) => !answered.has(id));
      expect(
        Object.fromEntries(open.map((id) => [id, started.has(id) ? "interrupted" : "not_executed"])),
      ).toEqual(point.owed);
      expect(lines.some((l) => l.type === "turn_end")).toBe(!point.cut);

      provider.enqueue(openaiText("went on"));
      const resumed = await runCli(["run", "--continue", "--json", "--yes", ...base, "go on"], {
        home: dirs.home,
        cwd: dirs.workspace,
        env: { OPENAI_API_KEY: "x" },
      });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(jsonEvents(resumed.stdout).find((e) => e.type === "turn_end")).toMatchObject({
        turn: 2,
        stop_reason: "completed",
      });

      // Every line written before the kill is still there, byte for byte.
      const afterResume = readFileSync(file, "utf8");
      expect(afterResume.startsWith(afterKill)).toBe(true);
      const all = loadRecord(file).lines;
      const ends = all.filter((l) => l.type === "turn_end");
      expect(ends[0]).toMatchObject({ turn: 1, stopReason: point.cut ? "aborted" : "completed" });
      expect(ends.filter((l) => l.turn === 1)).toHaveLength(1);

      // The resumed request: legal, nothing invented, owed answers in place, the new prompt last.
      const messages = provider.requests.at(-1)!.body.messages as any[];
      expectLegal(messages);
      const sentAssistants = messages.filter((m) => m.role === "assistant");
      expect(sentAssistants.map((m) => m.content ?? "")).toEqual(assistants.map((a) => a.text));
      for (const [id, outcome] of Object.entries(point.owed)) {
        expect(all.find((l) => l.type === "tool_result" && l.id === id)).toMatchObject({ outcome });
        const tool = messages.find((m) => m.role === "tool" && m.tool_call_id === id);
        expect(tool.content).toMatch(
          outcome === "interrupted"
            ? /^interrupted: the session ended while this call was running; its effects are unknown/
            : /^not executed: the session ended before it ran/,
        );
      }
      expect(messages.at(-1)).toEqual({ role: "user", content: "go on" });
      expect(messages.filter((m) => m.role === "user").map((m) => m.content)).toEqual(["do it", "go on"]);
    } finally {
      dirs.cleanup();
    }
  });
});
