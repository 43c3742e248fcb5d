// Through the built CLI: fork, export, sessions, metrics (R-REC-6, R-REC-8) and the v1
// fixture (R-REC-7), each against real records in a temporary TERN_HOME.
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecord } from "../../src/record/load.js";
import { workspaceKey } from "../../src/record/store.js";
import { jsonEvents } from "../support/cli.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useE2E } from "./tools-support.js";

const e = useE2E({
  config: () => ({
    retry: { baseDelaySeconds: 0.01 },
    // Prices per million tokens: input 2, output 8, cached input 0.5.
    models: { "openai/priced-1": { pricing: { input: 2, output: 8, cacheRead: 0.5 } } },
  }),
});

const tern = (args: string[]) => e.run(args, { OPENAI_API_KEY: "x" });
const withModel = (model = "openai/mock-1") => ["--model", model, "--base-url", e.provider.baseUrl];

/** `tern run --json --yes`, expecting exit 0; returns the session id. */
async function run(prompt: string, extra: string[] = [], model?: string): Promise<string> {
  const result = await tern(["run", "--json", "--yes", ...withModel(model), ...extra, prompt]);
  expect(result.code, result.stderr).toBe(0);
  return jsonEvents(result.stdout)[0].id;
}

function sessionDir(id: string): string {
  return join(e.dirs.home, "sessions", workspaceKey(e.dirs.workspace), id);
}

/** The request's messages as `role: text` lines, system left out. */
const shape = (body: any): string[] =>
  body.messages
    .filter((m: any) => m.role !== "system")
    .map(
      (m: any) =>
        `${m.role}: ${m.content ?? ""}${m.tool_calls ? ` [${m.tool_calls.map((c: any) => c.id)}]` : ""}`,
    );

describe("fork and export", () => {
  it("fork --at N resumes with exactly turns 1..N", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo one" } }]),
      openaiText("first done"),
    );
    const id = await run("turn one");
    e.provider.enqueue(openaiText("second done"));
    await run("turn two", ["--resume", id]);
    e.provider.enqueue(openaiText("third done"));
    await run("turn three", ["--resume", id]);

    const forked = await tern(["fork", id, "--at", "2"]);
    expect(forked.code, forked.stderr).toBe(0);
    const newId = forked.stdout.trim();
    expect(newId).not.toBe(id);
    const lines = loadRecord(join(sessionDir(newId), "record.jsonl")).lines;
    expect(lines[0]).toMatchObject({ type: "session_start", parent: { session: id, turn: 2 } });
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));

    e.provider.enqueue(openaiText("forked reply"));
    await run("after fork", ["--resume", newId]);
    expect(shape(e.provider.requests.at(-1)!.body)).toEqual([
      "user: turn one",
      "assistant:  [c1]",
      "tool: one",
      "assistant: first done",
      "user: turn two",
      "assistant: second done",
      "user: after fork",
    ]);
    // The parent is untouched and the fork's turns continue from 3.
    expect(loadRecord(join(sessionDir(id), "record.jsonl")).lines.at(-1)).toMatchObject({ turn: 3 });
    expect(loadRecord(join(sessionDir(newId), "record.jsonl")).lines.at(-1)).toMatchObject({
      type: "turn_end",
      turn: 3,
    });

    const bad = await tern(["fork", id, "--at", "7"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("exports Markdown a person reads and JSON with every record, compaction included", async () => {
    e.provider.enqueue(
      openaiToolCalls(
        [{ id: "c1", name: "bash", args: { command: "echo exported-output" } }],
        undefined,
        "Running it.",
      ),
      openaiText("The command printed exported-output."),
    );
    const id = await run("please run the command");
    e.provider.enqueue(openaiText("Second answer."));
    await run("second question", ["--resume", id]);

    // Compaction is not built yet: write a summarize record by hand over turn 1.
    const file = join(sessionDir(id), "record.jsonl");
    const before = loadRecord(file).lines;
    const firstPrompt = before.find((l) => l.type === "user_prompt")!.seq;
    const firstEnd = before.find((l) => l.type === "turn_end")!.seq;
    appendFileSync(
      file,
      `${JSON.stringify({
        v: 1,
        seq: before.at(-1)!.seq + 1,
        ts: new Date().toISOString(),
        type: "compaction",
        stage: "summarize",
        fromSeq: firstPrompt,
        toSeq: firstEnd,
        summary: "SUMMARY: the user ran a command.",
        beforeTokens: 900,
        afterTokens: 100,
      })}\n`,
    );

    const md = await tern(["export", id, "--format", "md"]);
    expect(md.code, md.stderr).toBe(0);
    const text = md.stdout;
    expect(text).toContain(`# tern session ${id}`);
    expect(text).toContain("- model: openai/mock-1");
    expect(text).toContain("- turns: 2");
    expect(text).toContain("- cost: unknown");
    const order = [
      "## Turn 1",
      "**User**",
      "please run the command",
      "**Assistant**",
      "Running it.",
      "<summary>bash: echo exported-output</summary>",
      "exported-output",
      "The command printed exported-output.",
      "_Turn 1 ended: completed",
      "## Turn 2",
      "second question",
      "Second answer.",
      "_Turn 2 ended: completed",
      "Compaction (summarize)",
      "SUMMARY: the user ran a command.",
    ];
    let at = 0;
    for (const piece of order) {
      const next = text.indexOf(piece, at);
      expect(next, `"${piece}" after offset ${at}`).toBeGreaterThanOrEqual(0);
      at = next + piece.length;
    }

    const json = await tern(["export", id, "--format", "json"]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(json.stdout);
    const lines = loadRecord(file).lines;
    expect(parsed.records).toEqual(lines);
    expect(parsed.records.map((r: any) => r.type)).toContain("compaction");
    expect(parsed.session).toMatchObject({ id, turns: 2, cost: null });

    // The model context does apply the compaction: the summary replaces turn 1.
    e.provider.enqueue(openaiText("ok"));
    await run("third", ["--resume", id]);
    expect(shape(e.provider.requests.at(-1)!.body)).toEqual([
      "user: SUMMARY: the user ran a command.",
      "user: second question",
      "assistant: Second answer.",
      "user: third",
    ]);
  });

  it("an unknown session id is one line and exit 2 everywhere", async () => {
    for (const args of [
      ["export", "nope"],
      ["fork", "nope"],
      ["run", "--resume", "nope", ...withModel(), "hi"],
    ]) {
      const result = await tern(args);
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.stdout).toBe("");
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain("nope");
    }
  });
});

describe("sessions", () => {
  it("lists id, start, turns, title and cost, and stays quick with 300 sessions", async () => {
    e.provider.enqueue(openaiText("a"), openaiText("b"));
    const id = await run("list me please");
    await run("again", ["--resume", id]);
    const listed = await tern(["sessions", "--json"]);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ id, turns: 2, title: "list me please", cost: null, model: "openai/mock-1" }),
    ]);

    // 300 sessions written as plain records (no meta.json: the first listing builds them).
    const ws = join(e.dirs.home, "sessions", workspaceKey(e.dirs.workspace));
    for (let i = 0; i < 300; i++) {
      const sid = `20250101-00${String(Math.floor(i / 60)).padStart(2, "0")}${String(i % 60).padStart(2, "0")}-${i.toString(16).padStart(6, "0")}`;
      const ts = `2025-01-01T00:${String(Math.floor(i / 60)).padStart(2, "0")}:${String(i % 60).padStart(2, "0")}.000Z`;
      mkdirSync(join(ws, sid), { recursive: true });
      const rec = [
        { type: "session_start", id: sid, cwd: e.dirs.workspace, model: "openai/mock-1" },
        { type: "user_prompt", turn: 1, content: [{ type: "text", text: `bulk session ${i}` }] },
        {
          type: "assistant_message",
          turn: 1,
          round: 1,
          text: "ok",
          usage: { prompt: 1, completion: 1, cacheRead: 0, cacheWrite: 0 },
        },
        { type: "turn_end", turn: 1, rounds: 1, modelCalls: 1, cost: 0.01 },
      ];
      writeFileSync(
        join(ws, sid, "record.jsonl"),
        rec.map((r, n) => JSON.stringify({ v: 1, seq: n + 1, ts, ...r })).join("\n") + "\n",
      );
    }
    for (const pass of ["cold", "warm"]) {
      const t0 = Date.now();
      const table = await tern(["sessions"]);
      console.log(`tern sessions, 301 sessions, ${pass}: ${Date.now() - t0} ms`);
      expect(table.code).toBe(0);
      const rows = table.stdout.trimEnd().split("\n");
      expect(rows).toHaveLength(302);
      expect(rows[0]).toMatch(/^id\s+started\s+turns\s+cost\s+title$/);
      // Newest first: the session run just now, then the bulk ones from the newest.
      expect(rows[1]).toMatch(new RegExp(`^${id}\\s.*\\s2\\s+unknown\\s+list me please$`));
      expect(rows[2]).toMatch(
        /^20250101-000459-00012b\s+2025-01-01 00:04:59\s+1\s+\$0\.0100\s+bulk session 299$/,
      );
    }
  });
});

describe("metrics (R-REC-8)", () => {
  it("totals equal the provider-reported usage; unknown prices stay unknown; --since and --rebuild", async () => {
    // Session A, unknown price: two turns, three requests.
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "true" } }], {
        prompt_tokens: 100,
        completion_tokens: 20,
        cached_tokens: 40,
      }),
      openaiText("a1", { prompt_tokens: 150, completion_tokens: 30, cached_tokens: 100 }),
      openaiText("a2", { prompt_tokens: 200, completion_tokens: 10 }),
    );
    const a = await run("a turn one");
    await run("a turn two", ["--resume", a]);
    // Session B, known price, cached tokens.
    e.provider.enqueue(openaiText("b1", { prompt_tokens: 1000, completion_tokens: 500, cached_tokens: 600 }));
    const b = await run("b turn one", [], "openai/priced-1");

    const metrics = await tern(["metrics", "--json"]);
    expect(metrics.code, metrics.stderr).toBe(0);
    const { rows, totals } = JSON.parse(metrics.stdout);
    expect(rows).toHaveLength(3);
    const totalA = totals.find((t: any) => t.session === a);
    expect(totalA).toMatchObject({
      turns: 2,
      rounds: 3,
      modelCalls: 3,
      toolCalls: 1,
      prompt: 450,
      completion: 60,
      cacheRead: 140,
      cacheWrite: 0,
      billedInput: 310,
      cost: null,
    });
    for (const r of rows.filter((r: any) => r.session === a)) expect(r.cost).toBeNull();
    const totalB = totals.find((t: any) => t.session === b);
    // (1000 − 600) × 2 + 600 × 0.5 + 500 × 8 per million = 0.0051 USD
    expect(totalB).toMatchObject({
      turns: 1,
      prompt: 1000,
      completion: 500,
      cacheRead: 600,
      billedInput: 400,
    });
    expect(totalB.cost).toBeCloseTo(0.0051, 10);

    const table = await tern(["metrics"]);
    expect(table.stdout).toContain("unknown");
    expect(table.stdout).toContain("$0.0051");
    expect(table.stdout).not.toMatch(/\$0\.0000/);

    // An old session written by hand: --rebuild picks it up, --since leaves it out.
    const oldId = "20200101-000000-0000aa";
    const oldDir = sessionDir(oldId);
    mkdirSync(oldDir, { recursive: true });
    writeFileSync(
      join(oldDir, "record.jsonl"),
      [
        { type: "session_start", id: oldId, cwd: e.dirs.workspace, model: "openai/mock-1" },
        { type: "user_prompt", turn: 1, content: [{ type: "text", text: "old" }] },
        {
          type: "turn_end",
          turn: 1,
          startedAt: "2020-01-01T00:00:00.000Z",
          usage: { prompt: 7, completion: 3, cacheRead: 0, cacheWrite: 0 },
          cost: 0.5,
        },
      ]
        .map((r, n) => JSON.stringify({ v: 1, seq: n + 1, ts: "2020-01-01T00:00:00.000Z", ...r }))
        .join("\n") + "\n",
    );
    rmSync(join(e.dirs.home, "ledger.db"));
    for (const f of readdirSync(e.dirs.home)) if (f.startsWith("ledger.db-")) rmSync(join(e.dirs.home, f));
    const rebuilt = JSON.parse((await tern(["metrics", "--json", "--rebuild"])).stdout);
    expect(rebuilt.rows.filter((r: any) => r.session !== oldId)).toEqual(rows);
    expect(rebuilt.rows.find((r: any) => r.session === oldId)).toMatchObject({ prompt: 7, cost: 0.5 });

    const since = JSON.parse((await tern(["metrics", "--json", "--since", "2021-06-01"])).stdout);
    expect(since.rows).toEqual(rows);
    expect(since.totals.map((t: any) => t.session).sort()).toEqual([a, b].sort());
    const none = JSON.parse((await tern(["metrics", "--json", "--since", "2999-01-01"])).stdout);
    expect(none).toEqual({ rows: [], totals: [], models: [] });
    const bad = await tern(["metrics", "--since", "yesterday-ish"]);
    expect(bad.code).toBe(2);
  });

  it("two concurrent tern run processes lose no ledger rows", async () => {
    e.provider.setFallback(openaiText("concurrent", { prompt_tokens: 11, completion_tokens: 2 }));
    const results = await Promise.all(
      [1, 2, 3, 4].map((n) => tern(["run", "--json", ...withModel(), `parallel ${n}`])),
    );
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const ids = results.map((r) => jsonEvents(r.stdout)[0].id);
    const { rows } = JSON.parse((await tern(["metrics", "--json"])).stdout);
    expect(rows.map((r: any) => r.session).sort()).toEqual([...ids].sort());
    for (const r of rows) expect(r).toMatchObject({ prompt: 11, completion: 2 });
  });
});

describe("the v1 fixture through the CLI (R-REC-7)", () => {
  it("exports and resumes", async () => {
    const id = "20261129-115200-ab12cd";
    const dir = sessionDir(id);
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(import.meta.dirname, "../fixtures/record-v1/record.jsonl"), join(dir, "record.jsonl"));
    const original = readFileSync(join(dir, "record.jsonl"), "utf8");

    const json = await tern(["export", id, "--format", "json"]);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout).records).toHaveLength(20);
    const md = await tern(["export", id]);
    expect(md.code).toBe(0);
    for (const piece of [
      "Add a --verbose flag",
      "Compaction (shed)",
      "(denied)",
      "cost: unknown",
      "Fix the test too.",
    ])
      expect(md.stdout).toContain(piece);

    e.provider.enqueue(openaiText("continuing"));
    await run("go on", ["--resume", id]);
    const messages = e.provider.requests.at(-1)!.body.messages;
    // The recorded system prompt is replaced by this tern's own (a new context record says so).
    expect(shape({ messages })).toEqual([
      "user: Add a --verbose flag to src/cli.ts",
      "assistant: Let me read the CLI first. [toolu_01]",
      "tool: [read_file result shed by compaction (turn 1, round 1); re-run the tool to see it]",
      "assistant:  [toolu_02,toolu_03]",
      "tool: edited src/cli.ts",
      "tool: exit status 1\nFAIL test/cli.test.ts",
      "assistant: Added `--verbose`; one test fails because main() takes one argument.",
      "user: Fix the test too.",
      "assistant:  [toolu_04]",
      "tool: denied by user",
      "user: Your todo list has open items; review it.",
      "assistant: Understood, I will not delete anything.",
      "user: go on",
    ]);
    const after = readFileSync(join(dir, "record.jsonl"), "utf8");
    expect(after.startsWith(original)).toBe(true);
    const added = loadRecord(join(dir, "record.jsonl")).lines.slice(20);
    expect(added.map((l) => l.type)).toEqual(
      expect.arrayContaining(["context", "config", "user_prompt", "assistant_message", "turn_end"]),
    );
    expect(added.find((l) => l.type === "user_prompt")).toMatchObject({ turn: 3 });
  });
});
