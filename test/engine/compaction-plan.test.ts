// Compaction planning as pure functions of the context and limits (no session, no HTTP): the
// piece arithmetic, the ranges and their pieces over long in-memory records, shed plans, and one
// whole `compact` run against plain ports over a real in-memory fold.
import { describe, expect, it } from "vitest";
import { compact } from "../../src/engine/compaction/compaction.js";
import { estimateTokens } from "../../src/engine/compaction/compaction-estimate.js";
import type { CompactionPorts } from "../../src/engine/compaction/compaction-ports.js";
import {
  closedTurnsRange,
  MAX_SUMMARY_PIECES,
  openTurnRange,
  pieceBudget,
} from "../../src/engine/compaction/compaction-range.js";
import { planShed } from "../../src/engine/compaction/compaction-shed.js";
import { roundIndexOf, type CompactionView } from "../../src/engine/compaction/compaction-view.js";
import { newestThatFit, planMerge, planPieces } from "../../src/engine/compaction/summary-plan.js";
import type { EngineEvent } from "../../src/engine/door/events.js";
import { RecordFold } from "../../src/record/fold.js";
import type { RecordLine } from "../../src/record/types.js";
import type { Message } from "../../src/vocab/messages.js";
import { longRecordInMemory, type LongRecordShape } from "../support/long-record.js";

const FIXED = 1000;

function viewOf(
  fold: RecordFold,
  window: number,
  threshold = 0.8,
  rounds = roundIndexOf(fold.archive),
): CompactionView {
  return {
    entries: fold.contextEntries,
    openTurn: fold.openTurn?.turn,
    openCalls: fold.openCalls.length,
    rounds,
    fixedTokens: FIXED,
    contextTokens: FIXED + estimateTokens("", "", fold.messages),
    limit: threshold * window,
    requestLimit: threshold * window,
  };
}

const foldOf = (shape: Omit<LongRecordShape, "model">) =>
  RecordFold.from(longRecordInMemory({ ...shape, model: "local/mock-1" }));

/** A fold whose last turn is still open: its final answer and turn_end cut off. */
function openFold(rounds: number, resultBytes: number): RecordFold {
  const lines = longRecordInMemory({
    rounds: rounds + 1,
    roundsPerTurn: rounds + 1,
    resultBytes,
    model: "m",
  });
  return RecordFold.from(lines.slice(0, -2));
}

describe("summary piece arithmetic", () => {
  it("packs items into pieces under the budget, keeps tool results with their call, and names what does not fit", () => {
    const sizes = [5, 3, 3, 4, 20, 2, 2, 6];
    const tool = new Set([2, 6]); // results stay with the item before them
    const plan = planPieces(sizes, (i) => !tool.has(i), 10, 10);
    // Groups: [0] 5, [1–2] 6, [3] 4, [4] 20 (over the budget), [5–6] 4, [7] 6.
    expect(plan.pieces).toEqual([
      { start: 0, end: 0 },
      { start: 1, end: 3 },
      { start: 5, end: 7 },
    ]);
    expect(plan.tooBig).toEqual([{ start: 4, end: 4 }]);
    expect(plan.archivedBefore).toBe(0);
    // More pieces than allowed: the newest stay, the older are left to the archive.
    const capped = planPieces(sizes, (i) => !tool.has(i), 10, 1);
    expect(capped.pieces).toEqual([{ start: 5, end: 7 }]);
    expect(capped.archivedBefore).toBe(5);
    expect(capped.tooBig).toEqual([]);
  });

  it("groups summaries for merge requests under the budget, and keeps the newest that fit a room", () => {
    expect(planMerge([4, 4, 4, 9, 1], 8)).toEqual([[0, 1], [2], [3], [4]]);
    expect(newestThatFit([5, 5, 5, 5], 11)).toBe(2);
    expect(newestThatFit([5, 5], 100)).toBe(0);
  });
});

describe("summary ranges over long histories", () => {
  it("a history far over the limit becomes pieces that each fit one request, oldest first, none split from its results", () => {
    // 500 turns of ~120 tokens each against a 5k window (4,000-token limit).
    const fold = foldOf({ rounds: 1000, roundsPerTurn: 2, resultBytes: 200 });
    const view = viewOf(fold, 5000);
    expect(view.contextTokens).toBeGreaterThan(10 * view.limit);
    const range = closedTurnsRange(view)!;
    expect(range.openTurn).toBe(false);
    expect(range.label).toBe("turns 1–499");
    expect(range.pieces.length).toBe(MAX_SUMMARY_PIECES);
    const budget = pieceBudget(view, []);
    for (const piece of range.pieces) {
      expect(estimateTokens("", "", piece.messages)).toBeLessThanOrEqual(budget);
      expect(piece.messages[0].role).not.toBe("tool");
      const last = piece.messages.at(-1)!;
      expect(last.role === "assistant" && last.toolCalls.length > 0).toBe(false); // results come with their call
    }
    // Past the piece cap the oldest turns are left to the archive, named for recall.
    expect(range.leftOut).toHaveLength(1);
    expect(range.leftOut[0]).toMatch(/^turns 1–\d+$/);
    expect(range.pieces[0].label).toMatch(/^turns \d+–\d+$/);
    expect(range.pieces.at(-1)!.label).toMatch(/–499$/);
    // The range covers every entry of the older turns; the newest turn stays.
    expect(range.from).toBe(view.entries[0].seq);
    expect(range.restTokens + range.replacedTokens).toBe(view.contextTokens);
  });

  it("a history that fits one request goes whole, in its own messages", () => {
    const fold = foldOf({ rounds: 20, roundsPerTurn: 2, resultBytes: 200 });
    const view = viewOf(fold, 200_000);
    const range = closedTurnsRange(view)!;
    expect(range.pieces).toHaveLength(1);
    expect(range.pieces[0].messages).toEqual(view.entries.slice(0, -4).map((e) => e.msg));
    expect(range.leftOut).toEqual([]);
  });

  it("the open turn's older rounds are pieces after its prompt; the newest rounds stay", () => {
    const fold = openFold(200, 250);
    const view = viewOf(fold, 8000);
    const range = openTurnRange(view)!;
    expect(range.openTurn).toBe(true);
    expect(range.label).toMatch(/^turn 1 rounds 1–\d+$/);
    expect(range.prefix).toEqual([view.entries[0].msg]);
    expect(range.pieces.length).toBeGreaterThan(1);
    const budget = pieceBudget(view, range.prefix);
    for (const piece of range.pieces) {
      expect(estimateTokens("", "", piece.messages)).toBeLessThanOrEqual(budget);
      expect(piece.label).toMatch(/^turn 1 rounds? \d+/);
    }
    // The newest two rounds (assistant + result each) are not in the range.
    const newestSeqs = view.entries.slice(-4).map((e) => e.seq);
    for (const seq of newestSeqs) expect(seq).toBeGreaterThan(range.to);
  });
});

describe("shed plans", () => {
  it("old big results become placeholders naming turn and round; the newest rounds stay", () => {
    const fold = foldOf({ rounds: 8, roundsPerTurn: 2, resultBytes: 1000 });
    const view = viewOf(fold, 100_000);
    const plan = planShed(view, 3)!;
    const shedSeqs = Object.keys(plan.placeholders).map(Number);
    expect(shedSeqs).toHaveLength(3); // turns 1–3's results; turn 4's round is among the newest three
    expect(plan.placeholders[shedSeqs[0]]).toMatch(
      /^\[shed by compaction: read_file result from turn 1 round 1, \d+ chars; re-run the tool, or call recall \{"turn": 1, "round": 1\} to read it\]$/,
    );
    expect(plan.saved).toBeGreaterThan(0);
  });
});

/** Plain ports over a real in-memory fold: commits fold in, summary requests answered in memory. */
function memoryPorts(fold: RecordFold, window: number, answer: (history: readonly Message[]) => string) {
  const requests: number[] = [];
  const events: EngineEvent[] = [];
  const rounds = roundIndexOf(fold.archive);
  const ports: CompactionPorts = {
    view: () => ({ ...viewOf(fold, window, 0.8, rounds) }),
    takeReportedPrompt: () => 0,
    commit: (record) => {
      const line = { ...record, v: 1, seq: fold.lastSeq + 1, ts: new Date().toISOString() } as RecordLine;
      fold.apply(line);
      return line;
    },
    publish: (event) => events.push(event),
    requestSummary: async (history, instruction, spent) => {
      spent.modelCalls++;
      requests.push(FIXED + estimateTokens(instruction, "", history));
      return answer(history);
    },
  };
  return { ports, requests, events };
}

describe("compact through plain ports", () => {
  it("brings a history 20 windows large under the limit, every summary request under the request limit", async () => {
    const fold = foldOf({ rounds: 1400, roundsPerTurn: 2, resultBytes: 250 });
    const { ports, requests } = memoryPorts(fold, 5000, () => "Summary: tasks done, files read.");
    const before = ports.view().contextTokens;
    expect(before).toBeGreaterThan(20 * 4000);
    const outcome = await compact(ports, false);
    expect(outcome.ran).toBe(true);
    expect(outcome.after).toBeLessThanOrEqual(ports.view().limit);
    expect(requests.length).toBe(MAX_SUMMARY_PIECES);
    for (const tokens of requests) expect(tokens).toBeLessThanOrEqual(ports.view().requestLimit);
    const summary = fold.messages[0];
    expect(summary.role === "user" && summary.content[0].type === "text" && summary.content[0].text).toMatch(
      /^\[Summary of turns 1–699, written by compaction\. .*\]\n\[Not summarized, too long to summarize at once: turns 1–\d+; recall \{"turn": N\} reads a turn\.\]\nturns \d+–\d+: Summary: tasks done/,
    );
  });

  it("merges piece summaries that together are more than the room, each merge request under the limit", async () => {
    const fold = foldOf({ rounds: 400, roundsPerTurn: 2, resultBytes: 250 });
    // Every piece summary is ~200 tokens: a dozen of them are far more than the room for one.
    const { ports, requests } = memoryPorts(fold, 5000, (h) =>
      JSON.stringify(h).includes("[Summaries of") ? "Merged." : `Piece summary ${"p".repeat(800)}`,
    );
    const outcome = await compact(ports, false);
    expect(outcome.after).toBeLessThanOrEqual(ports.view().limit);
    for (const tokens of requests) expect(tokens).toBeLessThanOrEqual(ports.view().requestLimit);
    const text = JSON.stringify(fold.messages[0]);
    // Merged groups are labelled by the turns they span; a group of one stays as it was written.
    expect(text).toMatch(/turns 1–\d+: Merged\./);
    expect(text.split("Piece summary").length - 1).toBeLessThanOrEqual(1);
  });

  it("a summary not smaller than what it replaces is not applied, and a notice says so", async () => {
    const fold = foldOf({ rounds: 6, roundsPerTurn: 2, resultBytes: 100 });
    const context = JSON.stringify(fold.messages);
    const { ports, events } = memoryPorts(fold, 100_000, () => "x".repeat(20_000));
    const outcome = await compact(ports, true);
    expect(JSON.stringify(fold.messages)).toBe(context);
    expect(outcome.after).toBe(outcome.before);
    expect(events).toEqual([
      {
        type: "notice",
        text: expect.stringMatching(/^compaction: the summary of turns 1–2 .* so the original is kept$/),
      },
    ]);
  });
});
