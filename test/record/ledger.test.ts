import { spawn } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type LedgerRow,
  ledgerPath,
  openLedger,
  rebuildLedger,
  rowFromTurnEnd,
} from "../../src/record/ledger.js";
import { createSession } from "../../src/record/store.js";
import type { TurnEndRecord } from "../../src/record/types.js";
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
) => ({
  session,
  cwd: "/ws",
  turn,
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

  it("upserts one row per (session, turn) with billed input", () => {
    const l = openLedger(dirs.home);
    l.recordTurn(row("s1", 1, 0.5));
    l.recordTurn({ ...row("s1", 1, 0.7), stopReason: "failed" });
    const rows = l.rows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toEqual<LedgerRow>({ ...row("s1", 1, 0.7), stopReason: "failed", billedInput: 400 });
    l.close();
  });

  it("filters by since and totals per session; unknown cost makes the total unknown", () => {
    const l = openLedger(dirs.home);
    l.recordTurn(row("a", 1, 0.5));
    l.recordTurn(row("a", 2, 0.25));
    l.recordTurn(row("b", 1, 0.1));
    l.recordTurn(row("b", 2, null));
    expect(l.rows({ since: "2026-01-02" }).map((r) => [r.session, r.turn])).toEqual([
      ["a", 2],
      ["b", 2],
    ]);
    const totals = l.totals();
    expect(totals.map((t) => [t.session, t.turns, t.cost, t.prompt, t.billedInput, t.toolErrors])).toEqual([
      ["a", 2, 0.75, 2000, 800, 2],
      ["b", 2, null, 2000, 800, 2],
    ]);
    l.close();
  });

  it("rebuilds from every record's turn_end lines", () => {
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
    l.recordTurn(row("stale-session", 1, 9));
    l.close();
    const result = rebuildLedger(dirs.home);
    expect(result).toEqual({ rows: 2, warnings: [] });
    const l2 = openLedger(dirs.home);
    const rows = l2.rows();
    expect(rows.map((r) => [r.session, r.turn, r.cost, r.cwd])).toEqual([
      [s.id, 1, 0.3, dirs.workspace],
      [s.id, 2, 0.2, dirs.workspace],
    ]);
    expect(rows[0].billedInput).toBe(100);
    l2.close();
  });

  it("maps a turn_end record to a row", () => {
    const rec = { v: 1, seq: 9, ts: "2026-01-01T00:00:05Z", ...R.end(3, null, "aborted") } as TurnEndRecord;
    expect(rowFromTurnEnd("s", "/w", rec)).toMatchObject({
      session: "s",
      cwd: "/w",
      turn: 3,
      stopReason: "aborted",
      cost: null,
      prompt: 100,
    });
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
