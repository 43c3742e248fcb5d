// §7 amended 2026-12-07: old tool results become short placeholders, with
// their own `recall` hint, before any recent result is cut. Against plain ports over a real
// in-memory fold, as compaction-plan.test.ts does.
import { describe, expect, it } from "vitest";
import { compact } from "../../src/engine/compaction/compaction.js";
import { estimateTokens } from "../../src/engine/compaction/compaction-estimate.js";
import type { CompactionPorts } from "../../src/engine/compaction/compaction-ports.js";
import { planShed } from "../../src/engine/compaction/compaction-shed.js";
import { roundIndexOf, type CompactionView } from "../../src/engine/compaction/compaction-view.js";
import { RecordFold } from "../../src/record/fold.js";
import { RECORD_VERSION, type NewRecord, type RecordLine } from "../../src/record/types.js";
import { longRecordInMemory } from "../support/long-record.js";

const FIXED = 1000;

function viewOf(fold: RecordFold, window: number): CompactionView {
  return {
    entries: fold.contextEntries,
    openTurn: fold.openTurn?.turn,
    openCalls: fold.openCalls.length,
    rounds: roundIndexOf(fold.archive),
    fixedTokens: FIXED,
    contextTokens: FIXED + estimateTokens("", "", fold.messages),
    limit: 0.8 * window,
    requestLimit: 0.8 * window,
  };
}

function append(lines: RecordLine[], records: NewRecord[]): RecordLine[] {
  const ts = new Date().toISOString();
  for (const r of records) lines.push({ ...r, v: RECORD_VERSION, seq: lines.length + 1, ts } as RecordLine);
  return lines;
}

const usage = { prompt: 10, completion: 5, cacheRead: 0, cacheWrite: 0 };

/** An open turn whose one round read a file of `chars` characters, with call id `id`. */
function openRound(turn: number, id: string, chars: number): NewRecord[] {
  return [
    { type: "user_prompt", turn, content: [{ type: "text", text: "read the big log" }] },
    {
      type: "assistant_message",
      ...{ turn, round: 1, text: "", reasoning: "", finish: "tool_calls", rawFinish: "tool_calls", usage },
      toolCalls: [{ id, name: "read_file", arguments: JSON.stringify({ path: "big.log" }) }],
      model: "m",
    },
    { type: "tool_start", turn, id, name: "read_file" },
    {
      type: "tool_result",
      turn,
      id,
      name: "read_file",
      outcome: "ok",
      content: [{ type: "text", text: "L".repeat(chars) }],
    },
  ] as NewRecord[];
}

function ports(fold: RecordFold, window: number, summary: string): CompactionPorts {
  return {
    view: () => viewOf(fold, window),
    takeReportedPrompt: () => 0,
    commit: (record) => {
      const line = { ...record, v: 1, seq: fold.lastSeq + 1, ts: new Date().toISOString() } as RecordLine;
      fold.apply(line);
      return line;
    },
    publish: () => {},
    requestSummary: async (_history, _instruction, spent) => {
      spent.modelCalls++;
      return summary;
    },
  };
}

const text = (fold: RecordFold, seq: number) => {
  const m = fold.contextEntries.find((e) => e.seq === seq)!.msg;
  return m.role === "tool" ? m.content.map((p) => (p.type === "text" ? p.text : "")).join("") : "";
};

describe("shedding order (§7 amended)", () => {
  it("every old result is a placeholder before the newest result is cut, small ones included", async () => {
    // 120 closed turns of one 290-char result each (under the shed's usual 300), then a 30,000-char
    // newest result; the summaries cannot help (each comes out larger than what it would replace).
    const lines = longRecordInMemory({ rounds: 240, roundsPerTurn: 2, resultBytes: 290, model: "m" });
    const fold = RecordFold.from(append(lines, openRound(121, "big", 30_000)));
    const newest = fold.contextEntries.at(-1)!.seq;
    const oldSeqs = fold.contextEntries
      .filter((e) => e.msg.role === "tool" && e.seq !== newest)
      .map((e) => e.seq);
    expect(oldSeqs).toHaveLength(120);
    const outcome = await compact(ports(fold, 16_000, "s".repeat(400_000)), false);
    expect(outcome.ran).toBe(true);
    for (const seq of oldSeqs)
      expect(text(fold, seq)).toMatch(/^\[shed by compaction: read_file result from turn \d+ round 1, /);
    // The newest result is cut only as far as the old ones' placeholders could not make room.
    const cut = text(fold, newest);
    expect(cut.length).toBeGreaterThan(19_000);
  });

  it("a provider reusing call ids: each placeholder names its own turn for recall", () => {
    const lines: RecordLine[] = [
      {
        type: "session_start",
        v: RECORD_VERSION,
        seq: 1,
        ts: new Date().toISOString(),
        id: "s",
        cwd: "/ws",
        model: "m",
      },
    ];
    for (let turn = 1; turn <= 4; turn++) {
      append(lines, openRound(turn, "call_0", 5000));
      append(lines, [
        {
          type: "assistant_message",
          ...{
            turn,
            round: 2,
            text: "done",
            reasoning: "",
            toolCalls: [],
            finish: "stop",
            rawFinish: "stop",
            usage,
          },
          model: "m",
        },
        {
          type: "turn_end",
          ...{ turn, stopReason: "completed", rounds: 2, modelCalls: 2, toolCalls: 1, toolErrors: 0, usage },
          ...{ cost: null, durationMs: 1, startedAt: new Date().toISOString() },
        },
      ] as NewRecord[]);
    }
    const fold = RecordFold.from(lines);
    const plan = planShed(viewOf(fold, 8000), 1)!;
    const hints = Object.values(plan.placeholders).map(
      (p) => /recall \{"turn": (\d+), "round": 1\}/.exec(p)?.[1],
    );
    expect(hints).toEqual(["1", "2", "3", "4"]);
  });
});
