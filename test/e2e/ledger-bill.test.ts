// R-REC-8 / R-PROV-6 / R-SIDE-4 through the built CLI: real sessions (line mode `--plain` in a
// pseudo-terminal scripting /retry, /compact and /btw; `tern fork`; a SIGKILL mid-turn and a
// resume) against the fake provider, then the ledger must equal the bill: the sum of the usage
// the provider reported for every request it served but side questions, priced, and the
// rebuilt ledger must equal the live one — also after ledger.db was replaced by garbage.
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { workspaceKey } from "../../src/record/store.js";
import { cliEnv, jsonEvents, runCli, TERN_BIN } from "../support/cli.js";
import { FakeProvider, type RecordedRequest, type ScriptedResponse } from "../support/fake-provider.js";
import {
  type OpenAIUsageInput,
  openaiError,
  openaiStream,
  openaiText,
  openaiToolCalls,
} from "../support/openai-script.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { VTerm } from "../support/vterm.js";

const MODEL = "local/mock-1";
/** USD per million tokens. */
const PRICE = { input: 2, output: 8, cacheRead: 0.5 };

let dirs: TempDirs;
let provider: FakeProvider;
const terms: VTerm[] = [];
beforeEach(async () => {
  dirs = makeTempDirs("tern-ledger-");
  provider = await FakeProvider.start();
  writeFileSync(
    join(dirs.home, "config.json"),
    JSON.stringify({
      retry: { baseDelaySeconds: 0.01, maxDelaySeconds: 0.05, maxRetries: 1 },
      models: { [MODEL]: { pricing: PRICE } },
    }),
  );
});
afterEach(async () => {
  for (const vt of terms.splice(0)) await vt.close();
  await provider.close();
  dirs.cleanup();
});

const modelArgs = () => ["--model", MODEL, "--base-url", provider.baseUrl];
const tern = (args: string[], home = dirs.home) => runCli(args, { home, cwd: dirs.workspace });

/** A reply whose stream is cut after its usage frame: the attempt fails, yet the provider reported usage. */
function cutAfterUsage(usage: OpenAIUsageInput): ScriptedResponse {
  const built = openaiStream().text("lost ").usage(usage).build();
  return { ...built, fault: { kind: "reset_after", frames: built.frames!.length - 1 } };
}

interface Usage4 {
  prompt: number;
  completion: number;
  cacheRead: number;
  cacheWrite: number;
}

/** The usage a request's response reported, read from the frames the provider actually sent. */
function reported(req: RecordedRequest): Usage4 {
  let last: any;
  for (const frame of req.sent) {
    const data = frame.replace(/^data: /, "").trim();
    if (!data.startsWith("{")) continue;
    const chunk = JSON.parse(data);
    if (chunk.usage) last = chunk.usage;
  }
  return {
    prompt: last?.prompt_tokens ?? 0,
    completion: last?.completion_tokens ?? 0,
    cacheRead: last?.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWrite: 0,
  };
}

const priced = (u: Usage4) =>
  ((u.prompt - u.cacheRead) * PRICE.input + u.cacheRead * PRICE.cacheRead + u.completion * PRICE.output) /
  1_000_000;

const sum = (rows: any[], key: string) => rows.reduce((n, r) => n + r[key], 0);

async function metricsJson(extra: string[] = []): Promise<any> {
  const out = await tern(["metrics", "--json", ...extra]);
  expect(out.code, out.stderr).toBe(0);
  return JSON.parse(out.stdout);
}

async function line(vt: VTerm, text: string, until: string | RegExp): Promise<void> {
  await vt.type(text);
  await vt.press("enter");
  await vt.waitFor(until, 30_000);
}

function recordText(id: string): string {
  const file = join(dirs.home, "sessions", workspaceKey(dirs.workspace), id, "record.jsonl");
  return existsSync(file) ? readFileSync(file, "utf8") : "";
}

/** `tern run --json` killed with SIGKILL as soon as `when` holds of its events (the test decides when). */
async function runAndKillWhen(
  extra: string[],
  prompt: string,
  when: (events: any[]) => boolean,
): Promise<any[]> {
  const child = spawn(process.execPath, [TERN_BIN, "run", "--json", ...extra, ...modelArgs(), prompt], {
    cwd: dirs.workspace,
    env: cliEnv(dirs.home),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  const exited = new Promise((resolve) => child.on("close", resolve));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !when(jsonEvents(stdout))) await new Promise((r) => setTimeout(r, 20));
  child.kill("SIGKILL");
  await exited;
  return jsonEvents(stdout);
}

/** `tern run` killed with SIGKILL while its bash call runs. */
async function runAndKillMidTool(prompt: string): Promise<string> {
  let id = "";
  await runAndKillWhen(["--yes"], prompt, (events) => {
    id = events.find((e) => e.type === "session")?.id ?? "";
    return id !== "" && recordText(id).includes('"type":"tool_start"');
  });
  expect(recordText(id)).toContain('"type":"tool_start"');
  expect(recordText(id)).not.toContain('"type":"turn_end"');
  return id;
}

describe("the ledger is the bill (R-REC-8)", () => {
  it("retries, /retry, /compact, /btw, fork and a crash: totals = what the provider billed, live = rebuilt", async () => {
    // --- Session A in the line mode -----------------------------------------------------------
    provider.enqueue(
      // Turn 1: a cut attempt (billed), a tool round, the answer.
      cutAfterUsage({ prompt_tokens: 100, completion_tokens: 7, cached_tokens: 20 }),
      openaiToolCalls([{ id: "t1", name: "bash", args: { command: "echo hi" } }], {
        prompt_tokens: 120,
        completion_tokens: 9,
        cached_tokens: 100,
      }),
      openaiText("done one", { prompt_tokens: 200, completion_tokens: 11, cached_tokens: 110 }),
      // Turn 2 fails: both attempts cut after reporting usage.
      cutAfterUsage({ prompt_tokens: 300, completion_tokens: 3 }),
      cutAfterUsage({ prompt_tokens: 310, completion_tokens: 4 }),
      // /retry of turn 2.
      openaiText("two ok", { prompt_tokens: 330, completion_tokens: 12, cached_tokens: 300 }),
      // /compact: the summary.
      openaiText("SUMMARY OF TURN ONE", { prompt_tokens: 400, completion_tokens: 40 }),
      // /btw: a side question, never in the ledger.
      openaiText("the side answer", { prompt_tokens: 50, completion_tokens: 5 }),
      // Turn 3.
      openaiText("three ok", { prompt_tokens: 450, completion_tokens: 5, cached_tokens: 400 }),
    );
    const vt = new VTerm({
      home: dirs.home,
      cwd: dirs.workspace,
      args: ["--plain", "--yes", ...modelArgs()],
    });
    terms.push(vt);
    await vt.waitFor(/^› $/m, 20_000);
    const a = /session (\S+)/.exec(vt.text())![1];
    await line(vt, "first", /— turn 1 · completed/);
    await line(vt, "second", /— turn 2 · failed/);
    await line(vt, "/retry", /— turn 2 · completed/);
    await line(vt, "/compact", /compacted: \d+ → \d+ tokens/);
    await line(vt, "/btw what happened so far?", "[side] the side answer");
    await line(vt, "third", /— turn 3 · completed/);
    // The status cost shows side questions apart: (50×2 + 5×8) / 1e6 = $0.0001.
    await line(vt, "/cost", /cost so far: \$\d+\.\d{4} \(\+ \$0\.0001 side questions\)/);
    await vt.type("/quit");
    await vt.press("enter");
    expect(await vt.exited).toBe(0);
    const side = provider.requests.find((r) =>
      JSON.stringify(r.body.messages.at(-1)).includes("what happened so far?"),
    )!;
    expect(reported(side)).toMatchObject({ prompt: 50 });

    // The compaction was billed at once, on its own row (before any later turn was sent).
    const compactionRecord = recordText(a)
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l))
      .find((l) => l.type === "compaction" && l.stage === "summarize");
    expect(compactionRecord).toMatchObject({ usage: { prompt: 400, completion: 40 }, modelCalls: 1 });
    expect(compactionRecord.bill.cost).toBeCloseTo((400 * 2 + 40 * 8) / 1e6, 12);

    // --- A fork of A (copies turns 1–3 and the compaction), one turn of its own ---------------
    const forked = await tern(["fork", a]);
    expect(forked.code, forked.stderr).toBe(0);
    const f = forked.stdout.trim();
    provider.enqueue(openaiText("fork ok", { prompt_tokens: 600, completion_tokens: 6, cached_tokens: 500 }));
    const inFork = await tern(["run", "--json", "--resume", f, ...modelArgs(), "in the fork"]);
    expect(inFork.code, inFork.stderr).toBe(0);

    // --- Session C: killed mid-tool, then resumed ---------------------------------------------
    provider.enqueue(
      openaiToolCalls([{ id: "s1", name: "bash", args: { command: "sleep 30" } }], {
        prompt_tokens: 700,
        completion_tokens: 13,
      }),
    );
    const c = await runAndKillMidTool("crash please");
    provider.enqueue(
      openaiText("recovered", { prompt_tokens: 800, completion_tokens: 14, cached_tokens: 700 }),
    );
    const resumed = await tern(["run", "--json", "--resume", c, ...modelArgs(), "after the crash"]);
    expect(resumed.code, resumed.stderr).toBe(0);

    // --- The bill ------------------------------------------------------------------------------
    const billed = provider.requests.filter((r) => r !== side);
    expect(billed).toHaveLength(11);
    const want = billed.map(reported);
    const live = await metricsJson();
    const rows = live.rows;
    for (const key of ["prompt", "completion", "cacheRead", "cacheWrite"] as const)
      expect(sum(rows, key), key).toBe(want.reduce((n, u) => n + u[key], 0));
    expect(sum(rows, "modelCalls")).toBe(billed.length);
    for (const r of rows) expect(r.cost, `${r.session} ${r.kind} ${r.turn}`).not.toBeNull();
    expect(sum(rows, "cost")).toBeCloseTo(
      want.reduce((n, u) => n + priced(u), 0),
      12,
    );
    expect(sum(live.totals, "prompt")).toBe(sum(rows, "prompt"));

    const shape = (s: string) =>
      rows
        .filter((r: any) => r.session === s)
        .map((r: any) => [r.kind, r.turn, r.stopReason, r.modelCalls, r.prompt]);
    expect(shape(a)).toEqual([
      ["turn", 1, "completed", 3, 420],
      ["turn", 2, "completed", 3, 940],
      ["compaction", 2, "completed", 1, 400],
      ["turn", 3, "completed", 1, 450],
    ]);
    expect(shape(f)).toEqual([["turn", 4, "completed", 1, 600]]);
    expect(shape(c)).toEqual([
      ["turn", 1, "aborted", 1, 700],
      ["turn", 2, "completed", 1, 800],
    ]);
    const aborted = rows.find((r: any) => r.session === c && r.turn === 1);
    expect(aborted.cost).toBeCloseTo(
      priced({ prompt: 700, completion: 13, cacheRead: 0, cacheWrite: 0 }),
      12,
    );

    // Per model: the same sums, and the cache hit rate a user checks.
    expect(live.models).toHaveLength(1);
    expect(live.models[0]).toMatchObject({ model: MODEL, prompt: sum(rows, "prompt") });
    expect(live.models[0].cacheHitRate).toBeCloseTo(sum(rows, "cacheRead") / sum(rows, "prompt"), 12);

    // --- Rebuilt = live, also from a ledger.db that is not a database -------------------------
    expect(await metricsJson(["--rebuild"])).toEqual(live);
    writeFileSync(join(dirs.home, "ledger.db"), "not a database\n".repeat(500));
    const damaged = await tern(["metrics"]);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr).toMatch(/ledger\.db is damaged .*tern metrics --rebuild/);
    expect(damaged.stderr).not.toMatch(/internal error|at .*\.js:\d+/);
    const replaced = await tern(["metrics", "--json", "--rebuild"]);
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(replaced.stderr).toMatch(/was damaged and has been replaced/);
    expect(JSON.parse(replaced.stdout)).toEqual(live);

    // The text table shows when each row started and how long it took.
    const table = await tern(["metrics"]);
    expect(table.code).toBe(0);
    const [head] = table.stdout.split("\n");
    expect(head).toMatch(/^session\s+kind\s+turn\s+started\s+duration\s+stop\s+rounds/);
    expect(table.stdout).toMatch(/totals per model\nmodel .*cache hit/);
    expect(table.stdout).toMatch(
      new RegExp(`${c}\\s+turn\\s+1\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+\\d+\\.\\ds\\s+aborted`),
    );
  });
});

describe("tern metrics on a new TERN_HOME", () => {
  it("shows an empty table and exits 0, creating nothing", async () => {
    for (const home of [dirs.home, join(dirs.root, "never-created")]) {
      const text = await tern(["metrics"], home);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stderr).toBe("");
      expect(text.stdout.split("\n")[0]).toMatch(/^session\s+kind\s+turn\s+started\s+duration/);
      const json = await tern(["metrics", "--json"], home);
      expect(json.code, json.stderr).toBe(0);
      expect(JSON.parse(json.stdout)).toEqual({ rows: [], totals: [], models: [] });
      expect(existsSync(join(home, "ledger.db"))).toBe(false);
    }
    const rebuilt = await tern(["metrics", "--json", "--rebuild"], join(dirs.root, "also-new"));
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(JSON.parse(rebuilt.stdout)).toEqual({ rows: [], totals: [], models: [] });
  });
});

describe("a crash while a retry waits (R-REC-8)", () => {
  it("bills the failed attempt's usage in the aborted turn when the session resumes", async () => {
    // A long wait before the retry: the test kills tern inside it.
    writeFileSync(
      join(dirs.home, "config.json"),
      JSON.stringify({
        retry: { baseDelaySeconds: 30, maxDelaySeconds: 30, maxRetries: 2 },
        models: { [MODEL]: { pricing: PRICE } },
      }),
    );
    provider.enqueue(
      cutAfterUsage({ prompt_tokens: 400, completion_tokens: 6 }),
      openaiText("after", { prompt_tokens: 50, completion_tokens: 2 }),
    );
    const retrying = (events: any[]) => events.some((e) => e.type === "retry_scheduled");
    const events = await runAndKillWhen([], "first", retrying);
    expect(retrying(events)).toBe(true);

    const resumed = await tern(["run", ...modelArgs(), "--continue", "again"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const { rows } = await metricsJson();
    const turn1 = rows.find((r: any) => r.turn === 1);
    expect(turn1).toMatchObject({ stopReason: "aborted", modelCalls: 1, prompt: 400, completion: 6 });
    expect(turn1.cost).toBeCloseTo(priced({ prompt: 400, completion: 6, cacheRead: 0, cacheWrite: 0 }));
    // Every request that reported usage is in exactly one row.
    expect(sum(rows, "prompt")).toBe(450);
    expect(await metricsJson(["--rebuild"])).toEqual(await metricsJson());
    // The file that kept it is gone once billed.
    const id = events.find((e) => e.type === "session").id;
    expect(existsSync(join(dirs.home, "sessions", workspaceKey(dirs.workspace), id, "unbilled.json"))).toBe(
      false,
    );
  });

  it("counts a request that failed without usage as a model call of the aborted turn", async () => {
    writeFileSync(
      join(dirs.home, "config.json"),
      JSON.stringify({ retry: { baseDelaySeconds: 30, maxDelaySeconds: 30, maxRetries: 2 } }),
    );
    provider.enqueue(openaiError(500, { error: { message: "boom" } }), openaiText("after"));
    const retrying = (events: any[]) => events.some((e) => e.type === "retry_scheduled");
    expect(retrying(await runAndKillWhen([], "first", retrying))).toBe(true);
    expect(provider.requests).toHaveLength(1);

    const resumed = await tern(["run", ...modelArgs(), "--continue", "again"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const { rows } = await metricsJson();
    expect(rows.find((r: any) => r.turn === 1)).toMatchObject({
      stopReason: "aborted",
      modelCalls: 1,
      prompt: 0,
    });
    expect(rows.find((r: any) => r.turn === 2)).toMatchObject({ stopReason: "completed", modelCalls: 1 });
  });
});
