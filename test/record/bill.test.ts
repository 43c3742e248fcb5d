// R-REC-8: the ledger's rows derived from one record — a turn's runs add up, `/compact` outside
// a turn is a row of its own, a fork's copied lines are the parent's, and a turn a crash cut off
// is billed from its current run only (with every attempt it recorded).
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { billOf, firstOwnIndex } from "../../src/record/bill.js";
import { RecordFold } from "../../src/record/fold.js";
import { loadRecord } from "../../src/record/load.js";
import { recoverOnLoad } from "../../src/record/quiesce.js";
import type { NewRecord, RecordLine } from "../../src/record/types.js";
import { call, R, stamp, usage } from "./helpers.js";

const summary = (bill: boolean, u = usage(500, 40)): NewRecord => ({
  type: "compaction",
  stage: "summarize",
  fromSeq: 3,
  toSeq: 4,
  summary: "[Summary]",
  beforeTokens: 100,
  afterTokens: 10,
  usage: u,
  modelCalls: 2,
  ...(bill
    ? {
        bill: {
          cost: 0.004,
          startedAt: "2026-01-01T00:00:09.000Z",
          durationMs: 700,
          model: "openai/gpt-test",
        },
      }
    : {}),
});

const end = (
  turn: number,
  u: ReturnType<typeof usage>,
  cost: number | null,
  stopReason = "completed",
): NewRecord => ({ ...R.end(turn, cost, stopReason), usage: u, modelCalls: 2, rounds: 1 }) as NewRecord;

describe("billOf", () => {
  it("adds every run of a turn (/retry) into one row; the newest run's stop reason", () => {
    const lines = stamp([
      R.start(),
      R.user(1, "a"),
      end(1, usage(100, 10), 0.1, "failed"),
      R.assistant(1, 1, "retried"),
      end(1, usage(300, 30, 100), 0.2),
    ]);
    const [row, ...rest] = billOf(lines);
    expect(rest).toEqual([]);
    expect(row).toMatchObject({
      kind: "turn",
      session: "s1",
      turn: 1,
      seq: 0,
      stopReason: "completed",
      modelCalls: 4,
      rounds: 2,
      prompt: 400,
      completion: 40,
      cacheRead: 100,
      billedInput: 300,
      durationMs: 2000,
      model: "openai/gpt-test",
    });
    expect(row.cost).toBeCloseTo(0.3, 12);
  });

  it("a /retry after a model switch bills each model for its own run", () => {
    const lines = stamp([
      R.start(),
      R.user(1, "a"),
      end(1, usage(100, 10), 0.1, "failed"),
      { type: "config", model: "openai/other" } as NewRecord,
      R.assistant(1, 1, "retried"),
      end(1, usage(300, 30), 0.2),
    ]);
    const [row] = billOf(lines);
    expect(row).toMatchObject({ model: "openai/other", prompt: 400, modelCalls: 4 });
    expect(row.parts).toEqual([
      {
        model: "openai/gpt-test",
        modelCalls: 2,
        prompt: 100,
        completion: 10,
        cacheRead: 0,
        cacheWrite: 0,
        billedInput: 100,
        cost: 0.1,
      },
      {
        model: "openai/other",
        modelCalls: 2,
        prompt: 300,
        completion: 30,
        cacheRead: 0,
        cacheWrite: 0,
        billedInput: 300,
        cost: 0.2,
      },
    ]);
  });

  it("gives a /compact outside a turn its own row; a summary inside a turn is in its turn_end", () => {
    const lines = stamp([
      R.start(),
      R.user(1, "a"),
      R.assistant(1, 1, "b"),
      summary(false), // inside turn 1
      end(1, usage(600, 50), 0.1),
      summary(true), // `/compact` after turn 1
      summary(true),
    ]);
    expect(billOf(lines).map((r) => [r.kind, r.turn, r.seq, r.modelCalls, r.prompt, r.cost])).toEqual([
      ["turn", 1, 0, 2, 600, 0.1],
      ["compaction", 1, 6, 2, 500, 0.004],
      ["compaction", 1, 7, 2, 500, 0.004],
    ]);
    expect(billOf(lines)[1]).toMatchObject({ started: "2026-01-01T00:00:09.000Z", durationMs: 700 });
  });

  it("skips what a fork copied (parent.seq); the fork's own /retry of the copied turn is its own", () => {
    const copied: NewRecord[] = [
      R.user(1, "a"),
      R.assistant(1, 1, "b"),
      end(1, usage(100, 10), 0.1),
      summary(true),
    ];
    const start = { ...R.start("fork"), parent: { session: "s1", turn: 1, seq: 5 } } as NewRecord;
    const lines = stamp([
      start,
      ...copied,
      R.assistant(1, 2, "again"),
      end(1, usage(7, 1), 0.01),
      R.user(2, "c"),
      end(2, usage(9, 1), 0.02),
    ]);
    expect(firstOwnIndex(lines)).toBe(5);
    expect(billOf(lines).map((r) => [r.session, r.turn, r.prompt])).toEqual([
      ["fork", 1, 7],
      ["fork", 2, 9],
    ]);
  });

  it("a fork written before parent.seq existed: the copy ends at the last turn_end of parent.turn", () => {
    const start = { ...R.start("fork"), parent: { session: "s1", turn: 2 } } as NewRecord;
    const lines = stamp([
      start,
      R.user(1, "a"),
      end(1, usage(1, 1), 0.1),
      R.user(2, "b"),
      end(2, usage(2, 1), 0.1, "failed"),
      end(2, usage(3, 1), 0.1),
      R.user(3, "own"),
      end(3, usage(40, 1), 0.1),
    ]);
    expect(billOf(lines).map((r) => [r.turn, r.prompt])).toEqual([[3, 40]]);
  });

  it("a record without session_start has no rows", () => {
    expect(billOf(stamp([R.user(1, "a")]) as RecordLine[])).toEqual([]);
  });
});

describe("recoverOnLoad bills the cut-off run", () => {
  it("counts only the run after the turn's last turn_end, with every attempt and in-turn summary", () => {
    const lines = stamp([
      R.start(),
      R.user(1, "a"),
      end(1, usage(100, 10), 0.1, "failed"), // its requests failed: usage only in the turn_end
      // The /retry run: a retried round, a summary inside the turn, then a crash mid-tool.
      {
        ...R.assistant(1, 1, "", [call("c1", "bash")], usage(200, 20, 50)),
        attempts: 3,
        failedUsage: usage(150, 5),
      } as NewRecord,
      summary(false, usage(80, 8)),
      R.toolStart(1, "c1", "bash"),
    ]);
    const fold = RecordFold.from(lines);
    const out = recoverOnLoad(fold, {
      cost: (u, model) => (model === "openai/gpt-test" ? u.prompt / 1000 : null),
    });
    const turnEnd = out.at(-1)!;
    expect(turnEnd).toMatchObject({
      type: "turn_end",
      turn: 1,
      stopReason: "aborted",
      rounds: 1,
      modelCalls: 5,
      toolCalls: 1,
      toolErrors: 1,
      usage: usage(430, 33, 50),
      cost: 0.43,
      startedAt: lines[3].ts,
    });
    // Billed with the first run: the row adds both, each request once.
    const all = [...lines, ...stamp(out, lines.length + 1)];
    expect(billOf(all)[0]).toMatchObject({ prompt: 530, modelCalls: 7, stopReason: "aborted" });
  });
});

describe("old records still rebuild (R-REC-7)", () => {
  it("the v1 fixture gives one row per turn from its turn_end lines", () => {
    const lines = loadRecord(join(import.meta.dirname, "../fixtures/record-v1/record.jsonl")).lines;
    expect(
      billOf(lines).map((r) => [r.kind, r.turn, r.modelCalls, r.prompt, r.cacheRead, r.billedInput, r.cost]),
    ).toEqual([
      ["turn", 1, 3, 4200, 2400, 1800, 0.0123],
      ["turn", 2, 2, 3500, 3200, 300, null],
    ]);
  });
});
