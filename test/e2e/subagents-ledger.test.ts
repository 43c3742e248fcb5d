// Sub-agents are sessions like any other (R-AGENT-1, R-REC-8): each child's turns are ledger rows
// with a `parent` column, `tern metrics` adds them up with the parent's (the bill equals what the
// provider reported), `tern sessions` lists children under their parent, and a child can be
// resumed, exported and forked. A ledger written before the column existed keeps its rows.
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { scriptBySession, sessionRecords, splitSessions } from "./subagents-support.js";
import { ternRun, useE2E } from "./tools-support.js";

const e = useE2E();
const task = (id: string, prompt: string, agent?: string) => ({
  id,
  name: "task",
  args: { description: "part", prompt, ...(agent ? { agent } : {}) },
});

async function parentWithTwoChildren() {
  scriptBySession(e, {
    "do it": [
      openaiToolCalls([task("t1", "part one", "explore"), task("t2", "part two")]),
      openaiText("done"),
    ],
    "part one": [openaiText("one", { prompt_tokens: 100, completion_tokens: 7 })],
    "part two": [openaiText("two", { prompt_tokens: 1000, completion_tokens: 9 })],
  });
  const run = await ternRun(e, []);
  expect(run.code).toBe(0);
  return splitSessions(sessionRecords(e));
}

describe("sub-agents in the ledger and the session commands", () => {
  it("child rows carry parent, and the totals add up to what the provider reported", async () => {
    const { parent, children } = await parentWithTwoChildren();
    const metrics = await e.run(["metrics", "--json"]);
    expect(metrics.code).toBe(0);
    const { rows, totals, models } = JSON.parse(metrics.stdout);
    expect(rows).toHaveLength(3);
    for (const child of children)
      expect(rows.find((r: any) => r.session === child.id)).toMatchObject({
        parent: parent.id,
        kind: "turn",
      });
    expect(rows.find((r: any) => r.session === parent.id)).toMatchObject({ parent: null, modelCalls: 2 });
    // Parent: 2 requests of 10 + 5; children: 100 + 7 and 1000 + 9. Four requests in all.
    expect(e.provider.requests).toHaveLength(4);
    const sum = (key: string) => totals.reduce((a: number, t: any) => a + t[key], 0);
    expect(sum("prompt")).toBe(1120);
    expect(sum("completion")).toBe(26);
    expect(sum("modelCalls")).toBe(4);
    expect(models[0]).toMatchObject({ model: "openai/mock-1", prompt: 1120, modelCalls: 4 });

    const text = await e.run(["metrics"]);
    for (const child of children) expect(text.stdout).toContain(`└ ${child.id}`);
  });

  it("tern sessions lists children under their parent", async () => {
    const { parent, children } = await parentWithTwoChildren();
    const listed = await e.run(["sessions"]);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.split("\n");
    const at = lines.findIndex((l) => l.startsWith(parent.id));
    expect(at).toBeGreaterThan(0);
    const below = lines.slice(at + 1, at + 3).join("\n");
    for (const child of children) expect(below).toContain(`└ ${child.id}`);
    expect(listed.stdout).toContain("[explore]");
    const json = JSON.parse((await e.run(["sessions", "--json"])).stdout);
    expect(json.find((s: any) => s.id === children[0].id).parent).toMatchObject({
      session: parent.id,
      turn: 1,
    });
  });

  it("a child is resumed, exported and forked like any session", async () => {
    const { parent, children } = await parentWithTwoChildren();
    const child = children.find((c) => c.lines[0].parent.agent === "explore")!;
    scriptBySession(e, { "part one": [openaiText("resumed answer")] });
    const resumed = await ternRun(e, ["--resume", child.id], "and more");
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("resumed answer");
    const again = sessionRecords(e).get(child.id)!;
    expect(again.lines.filter((l) => l.type === "turn_end").map((l) => l.turn)).toEqual([1, 2]);

    const md = await e.run(["export", child.id]);
    expect(md.code).toBe(0);
    expect(md.stdout).toContain(`- sub-agent 'explore' of: ${parent.id} at turn 1`);
    expect(md.stdout).toContain("resumed answer");

    const fork = await e.run(["fork", child.id, "--at", "1"]);
    expect(fork.code).toBe(0);
    const forkId = fork.stdout.trim();
    const forked = sessionRecords(e).get(forkId)!;
    expect(forked.lines[0].parent).toMatchObject({ session: child.id, turn: 1 });
    expect(forked.lines.some((l) => l.type === "assistant_message" && l.text === "one")).toBe(true);
  });

  it("a ledger written before the parent column keeps its rows and gets the column", async () => {
    const path = join(e.dirs.home, "ledger.db");
    const db = new Database(path);
    db.exec(`CREATE TABLE ledger_rows (session TEXT NOT NULL, kind TEXT NOT NULL, turn INTEGER NOT NULL,
      seq INTEGER NOT NULL, cwd TEXT NOT NULL, model TEXT NOT NULL, started TEXT NOT NULL,
      duration_ms INTEGER NOT NULL, stop_reason TEXT NOT NULL, rounds INTEGER NOT NULL,
      model_calls INTEGER NOT NULL, tool_calls INTEGER NOT NULL, tool_errors INTEGER NOT NULL,
      prompt INTEGER NOT NULL, completion INTEGER NOT NULL, cache_read INTEGER NOT NULL,
      cache_write INTEGER NOT NULL, billed_input INTEGER NOT NULL, cost REAL,
      PRIMARY KEY (session, kind, turn, seq));
      CREATE TABLE ledger_models (session TEXT NOT NULL, kind TEXT NOT NULL, turn INTEGER NOT NULL,
      seq INTEGER NOT NULL, model TEXT NOT NULL, started TEXT NOT NULL, model_calls INTEGER NOT NULL,
      prompt INTEGER NOT NULL, completion INTEGER NOT NULL, cache_read INTEGER NOT NULL,
      cache_write INTEGER NOT NULL, billed_input INTEGER NOT NULL, cost REAL,
      PRIMARY KEY (session, kind, turn, seq, model));
      INSERT INTO ledger_rows VALUES ('old-session', 'turn', 1, 0, '/w', 'openai/mock-1',
        '2026-01-01T00:00:00.000Z', 1000, 'completed', 1, 1, 0, 0, 50, 5, 0, 0, 50, 0.01);`);
    db.pragma("user_version = 2");
    db.close();
    const { children } = await parentWithTwoChildren();
    const { rows } = JSON.parse((await e.run(["metrics", "--json"])).stdout);
    expect(rows.find((r: any) => r.session === "old-session")).toMatchObject({ parent: null, prompt: 50 });
    expect(rows.filter((r: any) => r.parent !== null)).toHaveLength(children.length);
  });
});
