// The replay of a record (R-UI-17) as transcript items, pure: compaction markers, the figures
// the status line opens with, and what undo and /clear took back left out.
import { describe, expect, it } from "vitest";
import type { RecordLine } from "../../src/record/types.js";
import { replayRecord } from "../../src/tui/replay.js";
import { longRecordInMemory } from "../support/long-record.js";

const present = (call: { name: string; arguments: string }) => ({
  title: call.name,
  kind: "other" as const,
  locations: [],
});

function withLine(lines: RecordLine[], line: Record<string, unknown>): RecordLine[] {
  const last = lines.at(-1)!;
  return [...lines, { v: last.v, seq: last.seq + 1, ts: last.ts, ...line } as RecordLine];
}

describe("replayRecord", () => {
  const base = longRecordInMemory({ rounds: 4, roundsPerTurn: 2, resultBytes: 100, model: "local/mock-1" });

  it("shows a compaction as its marker, and the context figure is what it left", () => {
    const lines = withLine(base, {
      type: "compaction",
      stage: "summarize",
      fromSeq: 2,
      toSeq: 8,
      summary: "the story so far",
      beforeTokens: 1200,
      afterTokens: 300,
    });
    const replay = replayRecord(lines, present);
    expect(replay.items.at(-1)).toMatchObject({
      kind: "info",
      text: "compacted (summarize): 1200 → 300 tokens",
    });
    expect(replay.lastPrompt).toBe(300);
    // Four requests of 1200 + 40 tokens each.
    expect(replay.tokens).toBe(4 * 1240);
  });

  it("leaves out turns taken back and what came before a /clear", () => {
    const rewound = replayRecord(withLine(base, { type: "rewound", toTurn: 1 }), present);
    expect(rewound.items.map((i) => i.text)).toContain("› Task 1: look at the files");
    expect(rewound.items.map((i) => i.text)).not.toContain("› Task 2: look at the files");
    const cleared = replayRecord(withLine(base, { type: "cleared" }), present);
    expect(cleared.items).toEqual([]);
    expect(cleared.lastPrompt).toBe(0);
    expect(cleared.tokens).toBe(4 * 1240);
  });
});
