// Side questions' planning and the question over plain ports (no session, no HTTP): which
// messages are asked (the archive past a /clear, compaction ignored, running calls, the side
// history), how a copy is fitted to the window stage by stage, and how the answer, errors,
// cancellation and cost come back.
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/engine/compaction/compaction-estimate.js";
import { askThrough, type SidePorts, TOOL_CALL_ONLY } from "../../src/engine/side/ask.js";
import {
  archiveEntries,
  fitCopy,
  SIDE_HISTORY,
  type SideEntry,
  sideTail,
  STILL_RUNNING,
} from "../../src/engine/side/plan.js";
import { RECORD_VERSION, type RecordLine } from "../../src/record/types.js";
import type { Message } from "../../src/vocab/messages.js";
import type { Usage } from "../../src/vocab/usage.js";
import { longRecordInMemory } from "../support/long-record.js";

const record = (turns: number, resultBytes = 200) =>
  longRecordInMemory({ rounds: turns * 2, roundsPerTurn: 2, resultBytes, model: "m" });
const line = (lines: RecordLine[], extra: Record<string, unknown>) =>
  ({ v: RECORD_VERSION, seq: lines.length + 1, ts: "2026-01-01T00:00:00.000Z", ...extra }) as RecordLine;
const texts = (messages: Message[]) =>
  messages.map((m) =>
    m.role === "assistant" ? m.text : m.content.map((p) => (p.type === "text" ? p.text : "[image]")).join(""),
  );
const size = (messages: Message[]) => estimateTokens("SYS", "", messages);

describe("side question planning", () => {
  it("asks with the archive as messages, the side history's newest exchanges and then the question", () => {
    const entries = archiveEntries(record(2));
    const turn = ["user", "assistant", "tool", "assistant"];
    expect(entries.map((e) => e.msg.role)).toEqual([...turn, ...turn]);
    expect(entries.map((e) => e.turn)).toEqual([1, 1, 1, 1, 2, 2, 2, 2]);
    const history = Array.from({ length: SIDE_HISTORY + 3 }, (_, i) => ({
      question: `q${i}`,
      answer: `a${i}`,
    }));
    const tail = sideTail(history, "now?");
    expect(tail).toHaveLength(SIDE_HISTORY * 2 + 1);
    expect(texts(tail).slice(0, 2)).toEqual(["q3", "a3"]);
    expect(texts(tail).at(-1)).toBe("now?");
  });

  it("starts after the last /clear, ignores compaction records and answers a running call as still running", () => {
    const lines = record(2);
    lines.push(line(lines, { type: "cleared" }));
    const turn3 = longRecordInMemory({ rounds: 2, roundsPerTurn: 2, resultBytes: 50, model: "m" })
      .slice(2) // after session_start and context
      .map((l) => ({ ...l, turn: 3 }) as RecordLine);
    // Turn 3 cut off after its tool_start: the call has no result yet.
    const open = turn3.slice(
      0,
      turn3.findIndex((l) => l.type === "tool_result"),
    );
    for (const l of open) lines.push({ ...l, seq: lines.length + 1 } as RecordLine);
    lines.push(
      line(lines, {
        type: "compaction",
        stage: "summarize",
        fromSeq: 1,
        toSeq: 3,
        summary: "S",
        beforeTokens: 9,
        afterTokens: 1,
      }),
    );
    const entries = archiveEntries(lines);
    expect(entries.every((e) => e.turn === 3)).toBe(true);
    expect(texts(entries.map((e) => e.msg))).toEqual(["Task 1: look at the files", "", STILL_RUNNING]);
  });

  it("returns the copy as it is when it fits", () => {
    const entries = archiveEntries(record(3));
    const tail = sideTail([], "q");
    const all = [...entries.map((e) => e.msg), ...tail];
    expect(fitCopy(entries, tail, "SYS", size(all))).toEqual(all);
  });

  it("sheds old tool results first, keeping those after the newest answer (a running turn's)", () => {
    // Turn 3 is running: its call has a result, its answer has not come yet.
    const entries = archiveEntries(record(3, 20_000).slice(0, -2));
    const tail = sideTail([], "q");
    const before = size([...entries.map((e) => e.msg), ...tail]);
    const fitted = fitCopy(
      entries.map((e) => ({ ...e })),
      tail,
      "SYS",
      before - 5_000,
    ) as Message[];
    expect(Array.isArray(fitted)).toBe(true);
    const results = texts(fitted.filter((m) => m.role === "tool"));
    expect(
      results.slice(0, 2).every((t) => t.startsWith("[read_file result left out of this side question")),
    ).toBe(true);
    expect(results[2].length).toBeGreaterThan(10_000);
  });

  it("cuts long texts, then drops the oldest turns with a note, never the newest", () => {
    const long = "x".repeat(40_000);
    const entries: SideEntry[] = [1, 2, 3].flatMap((turn) => [
      { turn, msg: { role: "user", content: [{ type: "text", text: `${turn}:${long}` }] } as Message },
      { turn, msg: { role: "assistant", text: long, reasoning: "", toolCalls: [] } as Message },
    ]);
    const tail = sideTail([], "q");
    const cutOnly = fitCopy(
      entries.map((e) => ({ ...e })),
      tail,
      "SYS",
      20_000,
    ) as Message[];
    expect(cutOnly).toHaveLength(7);
    expect(texts(cutOnly)[1]).toMatch(/more chars left out of this side question\]$/);
    const dropped = fitCopy(
      entries.map((e) => ({ ...e })),
      tail,
      "SYS",
      500,
    ) as Message[];
    expect(texts(dropped)[0]).toMatch(/^\[earlier turns left out to fit the window\]\n3:/);
    expect(dropped).toHaveLength(3);
  });

  it("says why when even the newest turn does not fit", () => {
    const entries = archiveEntries(record(1));
    expect(fitCopy(entries, sideTail([], "q"), "SYS", 10)).toMatch(
      /^the side question does not fit the model's window/,
    );
  });
});

function ports(over: Partial<SidePorts> = {}): SidePorts & { sent: Message[][] } {
  const sent: Message[][] = [];
  return {
    archive: record(1),
    system: "SYS",
    limit: 100_000,
    send: async (messages, hooks) => {
      sent.push(messages);
      hooks.onEvent({ type: "text_delta", text: "an" });
      hooks.onAttemptUsage({ prompt: 10, completion: 2, cacheRead: 0, cacheWrite: 0 });
      return { text: "answer", toolCalls: 0 };
    },
    cost: (u: Usage) => u.prompt / 1000,
    isCancel: (err) => err instanceof Error && err.message === "provider cancelled",
    ...over,
    sent,
  };
}
const opts = (signal = new AbortController().signal) => {
  const events: string[] = [];
  return { history: [], signal, onEvent: (e: { text: string }) => events.push(e.text), events };
};

describe("a side question over ports", () => {
  it("sends the planned messages once and answers with the text, its deltas and what every attempt cost", async () => {
    const p = ports({
      send: async (messages, hooks) => {
        p.sent.push(messages);
        hooks.onAttemptUsage({ prompt: 1000, completion: 1, cacheRead: 0, cacheWrite: 0 });
        hooks.onAttemptUsage({ prompt: 2000, completion: 1, cacheRead: 0, cacheWrite: 0 });
        hooks.onEvent({ type: "text_delta", text: "an" });
        return { text: "answer", toolCalls: 0 };
      },
    });
    const o = opts();
    expect(await askThrough(p, "what?", o)).toEqual({ ok: true, text: "answer", cost: 3 });
    expect(o.events).toEqual(["an"]);
    expect(p.sent).toHaveLength(1);
    expect(texts(p.sent[0]).at(-1)).toBe("what?");
  });

  it("sends nothing when cancelled before, or when the copy cannot fit", async () => {
    const aborted = new AbortController();
    aborted.abort();
    const p = ports();
    expect(await askThrough(p, "q", opts(aborted.signal))).toEqual({
      ok: false,
      text: "",
      error: "cancelled",
      cost: 0,
    });
    const tiny = ports({ limit: 5 });
    const r = await askThrough(tiny, "q", opts());
    expect(r.ok).toBe(false);
    expect(r.error).toMatch(/does not fit the model's window/);
    expect(p.sent.length + tiny.sent.length).toBe(0);
  });

  it("a tool call alone or an empty answer is an error to ask again; a failure keeps its cost", async () => {
    const toolOnly = ports({ send: async () => ({ text: " ", toolCalls: 1 }) });
    expect((await askThrough(toolOnly, "q", opts())).error).toBe(TOOL_CALL_ONLY);
    const empty = ports({ send: async () => ({ text: "", toolCalls: 0 }) });
    expect((await askThrough(empty, "q", opts())).error).toBe(
      "the model returned an empty answer; ask again",
    );
    const failing = ports({
      send: async (_m, hooks) => {
        hooks.onAttemptUsage({ prompt: 500, completion: 0, cacheRead: 0, cacheWrite: 0 });
        throw new Error("HTTP 500 from provider");
      },
    });
    expect(await askThrough(failing, "q", opts())).toEqual({
      ok: false,
      text: "",
      error: "HTTP 500 from provider",
      cost: 0.5,
    });
    const cancelled = ports({ send: async () => Promise.reject(new Error("provider cancelled")) });
    expect((await askThrough(cancelled, "q", opts())).error).toBe("cancelled");
  });
});
