// R-REC-8: ledger.db as a real SQLite file — rows by kind, totals per session and per model,
// rebuild from the records (also over a damaged or foreign file), concurrent writers.
import { rebuildLedger } from "../../src/record/ledger-rebuild.js";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type LedgerRow,
  LedgerDamagedError,
  ledgerPath,
  openLedger,
  preloadLedger,
} from "../../src/record/ledger.js";
import { createSession } from "../../src/record/store.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { bundleChild, childEnv, R } from "./helpers.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const row = (
  session: string,
  turn: number,
  cost: number | null,
  started = `2026-01-0${turn}T00:00:00.000Z`,
  model = "openai/a",
): LedgerRow => ({
  kind: "turn",
  session,
  cwd: "/ws",
  turn,
  seq: 0,
  model,
  started,
  durationMs: 1000 * turn,
  stopReason: "completed",
  rounds: 2,
  modelCalls: 3,
  toolCalls: 4,
  toolErrors: 1,
  prompt: 1000,
  completion: 50,
  cacheRead: 600,
  cacheWrite: 100,
  billedInput: 400,
  cost,
});

describe("ledger", () => {
  it("creates ledger.db in WAL mode with a busy timeout", () => {
    const l = openLedger(dirs.home);
    expect(existsSync(ledgerPath(dirs.home))).toBe(true);
    expect(l.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(l.db.pragma("busy_timeout", { simple: true })).toBe(5000);
    l.close();
  });

  it("never waits for the disk (synchronous=OFF): the ledger is derived and rebuildable", () => {
    const l = openLedger(dirs.home);
    expect(l.db.pragma("synchronous", { simple: true })).toBe(0);
    l.close();
  });

  it("keys rows by session, kind, turn and seq; putSession replaces a session's rows", () => {
    const l = openLedger(dirs.home);
    l.put(row("s1", 1, 0.5));
    l.put({ ...row("s1", 1, 0.7), stopReason: "failed" });
    l.put({ ...row("s1", 1, 0.1), kind: "compaction", seq: 9 });
    expect(l.rows().map((r) => [r.kind, r.turn, r.seq, r.cost, r.stopReason])).toEqual([
      ["turn", 1, 0, 0.7, "failed"],
      ["compaction", 1, 9, 0.1, "completed"],
    ]);
    l.putSession("s1", [row("s1", 2, 0.2)]);
    l.put(row("other", 1, 0.3));
    expect(l.rows().map((r) => [r.session, r.turn])).toEqual([
      ["other", 1],
      ["s1", 2],
    ]);
    l.close();
  });

  it("filters by since; totals per session and per model with cache hit rate; unknown cost stays unknown", () => {
    const l = openLedger(dirs.home);
    l.put(row("a", 1, 0.5));
    l.put(row("a", 2, 0.25, undefined, "openai/b"));
    l.put({ ...row("a", 2, 0.1), kind: "compaction", seq: 7, turn: 2 });
    l.put(row("b", 1, 0.1));
    l.put(row("b", 2, null));
    expect(l.rows({ since: "2026-01-02" }).map((r) => [r.session, r.kind, r.turn])).toEqual([
      ["a", "turn", 2],
      ["a", "compaction", 2],
      ["b", "turn", 2],
    ]);
    const totals = l.totals();
    expect(
      totals.map((t) => [t.session, t.turns, t.compactions, t.cost, t.prompt, t.billedInput, t.cacheHitRate]),
    ).toEqual([
      ["a", 2, 1, 0.85, 3000, 1200, 0.6],
      ["b", 2, 0, null, 2000, 800, 0.6],
    ]);
    expect(totals[0].durationMs).toBe(1000 + 2000 + 2000);
    const models = l.modelTotals();
    expect(models.map((m) => [m.model, m.rows, m.prompt, m.cacheRead, m.cacheHitRate, m.cost])).toEqual([
      ["openai/a", 4, 4000, 2400, 0.6, null],
      ["openai/b", 1, 1000, 600, 0.6, 0.25],
    ]);
    l.close();
  });

  it("per-model totals count each model's share of a row", () => {
    const l = openLedger(dirs.home);
    const shared = row("s", 1, 0.3);
    l.put({
      ...shared,
      model: "openai/b",
      parts: [
        {
          model: "openai/a",
          modelCalls: 1,
          prompt: 400,
          completion: 20,
          cacheRead: 0,
          cacheWrite: 0,
          billedInput: 400,
          cost: 0.1,
        },
        {
          model: "openai/b",
          modelCalls: 2,
          prompt: 600,
          completion: 30,
          cacheRead: 600,
          cacheWrite: 100,
          billedInput: 0,
          cost: 0.2,
        },
      ],
    });
    expect(
      l.modelTotals().map((m) => [m.model, m.rows, m.modelCalls, m.prompt, m.cacheHitRate, m.cost]),
    ).toEqual([
      ["openai/a", 1, 1, 400, 0, 0.1],
      ["openai/b", 1, 2, 600, 1, 0.2],
    ]);
    // Replacing the row replaces its shares.
    l.put(row("s", 1, 0.3));
    expect(l.modelTotals().map((m) => [m.model, m.prompt])).toEqual([["openai/a", 1000]]);
    l.close();
  });

  it("rebuilds from the records: a /retry's runs add up; stale rows go", () => {
    const s = createSession(dirs.home, { cwd: dirs.workspace, model: "m" });
    s.writer.append(R.user(1, "x"));
    s.writer.append(R.assistant(1, 1, "y"));
    s.writer.append(R.end(1, 0.3));
    s.writer.append(R.user(2, "x"));
    s.writer.append(R.end(2, null, "failed"));
    s.writer.append(R.assistant(2, 1, "retry"));
    s.writer.append(R.end(2, 0.2));
    s.writer.close();
    const l = openLedger(dirs.home);
    l.put(row("stale-session", 1, 9));
    l.close();
    const result = rebuildLedger(dirs.home);
    expect(result).toEqual({ rows: 2, warnings: [] });
    const l2 = openLedger(dirs.home);
    const rows = l2.rows();
    expect(rows.map((r) => [r.session, r.turn, r.cost, r.cwd, r.modelCalls, r.prompt, r.stopReason])).toEqual(
      [
        [s.id, 1, 0.3, dirs.workspace, 1, 100, "completed"],
        // Both runs of turn 2: an unknown price in one makes the row unknown.
        [s.id, 2, null, dirs.workspace, 2, 200, "completed"],
      ],
    );
    expect(rows[0].billedInput).toBe(100);
    l2.close();
  });

  it("a new ledger.db is filled from the records when first opened", () => {
    const s = createSession(dirs.home, { cwd: dirs.workspace, model: "m" });
    s.writer.append(R.user(1, "x"));
    s.writer.append(R.end(1, 0.3));
    s.writer.close();
    const l = openLedger(dirs.home);
    expect(l.rows().map((r) => [r.session, r.turn])).toEqual([[s.id, 1]]);
    l.close();
  });

  it("--rebuild replaces a ledger.db that is not SQLite; opening it otherwise says it is damaged", () => {
    const s = createSession(dirs.home, { cwd: dirs.workspace, model: "m" });
    s.writer.append(R.user(1, "x"));
    s.writer.append(R.end(1, 0.3));
    s.writer.close();
    writeFileSync(ledgerPath(dirs.home), "this is not a database, it is a shopping list\n".repeat(200));
    expect(() => openLedger(dirs.home)).toThrow(LedgerDamagedError);
    const result = rebuildLedger(dirs.home);
    expect(result.rows).toBe(1);
    expect(result.warnings).toEqual([`${ledgerPath(dirs.home)} was damaged and has been replaced`]);
    const l = openLedger(dirs.home);
    expect(l.rows().map((r) => r.cost)).toEqual([0.3]);
    l.close();
  });

  it("an old ledger.db (one row per turn, no kind) is rebuilt on open", () => {
    const s = createSession(dirs.home, { cwd: dirs.workspace, model: "m" });
    s.writer.append(R.user(1, "x"));
    s.writer.append(R.end(1, 0.3));
    s.writer.close();
    const old = new Database(ledgerPath(dirs.home));
    old.exec("CREATE TABLE turns (session TEXT, turn INTEGER, PRIMARY KEY (session, turn))");
    old.close();
    const l = openLedger(dirs.home);
    expect(l.rows().map((r) => [r.kind, r.turn, r.cost])).toEqual([["turn", 1, 0.3]]);
    expect(l.db.prepare("SELECT name FROM sqlite_master WHERE name = 'turns'").all()).toEqual([]);
    l.close();
  });

  it("loses no rows when two processes insert at the same time", async () => {
    const out = mkdtempSync(join(dirs.root, "bundle-"));
    await bundleChild("children/ledger-writer.ts", out);
    openLedger(dirs.home).close(); // schema first, so both children race only on inserts
    const run = (session: string) =>
      new Promise<number>((resolve, reject) => {
        const child = spawn(process.execPath, [join(out, "child.mjs"), dirs.home, session, "300"], {
          env: childEnv(),
          stdio: ["ignore", "ignore", "pipe"],
        });
        let err = "";
        child.stderr.on("data", (d) => (err += d));
        child.on("error", reject);
        child.on("exit", (code) =>
          code === 0 ? resolve(code) : reject(new Error(`child exit ${code}: ${err}`)),
        );
      });
    await Promise.all([run("p1"), run("p2")]);
    const l = openLedger(dirs.home);
    const totals = l.totals();
    expect(totals.map((t) => [t.session, t.turns])).toEqual([
      ["p1", 300],
      ["p2", 300],
    ]);
    expect(l.rows()).toHaveLength(600);
    l.close();
  });
});

describe("preloadLedger", () => {
  let dirs: TempDirs;
  beforeEach(() => {
    dirs = makeTempDirs();
  });
  afterEach(() => dirs.cleanup());

  it("loads SQLite without creating any file, and the ledger opens as usual after it", () => {
    const cwd = process.cwd();
    process.chdir(dirs.workspace);
    try {
      preloadLedger();
      expect(readdirSync(dirs.workspace)).toEqual([]);
      expect(existsSync(ledgerPath(dirs.home))).toBe(false);
    } finally {
      process.chdir(cwd);
    }
    const ledger = openLedger(dirs.home);
    ledger.close();
    expect(existsSync(ledgerPath(dirs.home))).toBe(true);
  });
});
