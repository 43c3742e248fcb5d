// session/load's replay shows the conversation as it stands: turns taken back by undo or /rewind,
// and everything before a /clear, are not sent as history again (a redo brings its turns back).
import { describe, expect, it } from "vitest";
import { replayUpdates } from "../../src/acp/replay.js";
import type { TranscriptLine } from "../../src/engine/session.js";

let seq = 0;
const line = (rec: Record<string, unknown>) =>
  ({ v: 1, seq: ++seq, ts: "2026-12-01T00:00:00.000Z", ...rec }) as unknown as TranscriptLine;
const turn = (n: number) => [
  line({ type: "user_prompt", turn: n, content: [{ type: "text", text: `prompt ${n}` }] }),
  line({
    type: "assistant_message",
    turn: n,
    round: 1,
    text: `answer ${n}`,
    reasoning: "",
    toolCalls: [],
    finish: "stop",
  }),
  line({ type: "turn_end", turn: n, stopReason: "completed" }),
];
const texts = (lines: TranscriptLine[]) =>
  replayUpdates(lines, "/ws", () => ({ title: "", kind: "other", locations: [] })).map(
    (u) => (u as { content?: { text?: string } }).content?.text,
  );

describe("ACP replay of a session", () => {
  it("leaves out undone and rewound turns, and what came before a /clear", () => {
    expect(texts([...turn(1), ...turn(2)])).toEqual(["prompt 1", "answer 1", "prompt 2", "answer 2"]);
    const undone = [...turn(1), ...turn(2), line({ type: "undo", toTurn: 1, tree: "a", restored: "b" })];
    expect(texts(undone)).toEqual(["prompt 1", "answer 1"]);
    expect(texts([...undone, line({ type: "redo", restored: "a" })])).toEqual([
      "prompt 1",
      "answer 1",
      "prompt 2",
      "answer 2",
    ]);
    const rewound = [...turn(1), ...turn(2), line({ type: "rewound", toTurn: 1 }), ...turn(3)];
    expect(texts(rewound)).toEqual(["prompt 1", "answer 1", "prompt 3", "answer 3"]);
    expect(texts([...turn(1), line({ type: "cleared" }), ...turn(2)])).toEqual(["prompt 2", "answer 2"]);
  });
});
