import { describe, expect, it } from "vitest";
import { RecordError } from "../../src/record/errors.js";
import { RecordFold } from "../../src/record/fold.js";
import { admissible, isReady } from "../../src/record/phases.js";
import type { NewRecord, Phase, RecordType } from "../../src/record/types.js";
import { call, R, stamp, usage } from "./helpers.js";

const fold = (recs: NewRecord[]) => RecordFold.from(stamp(recs));

const twoRounds = (): NewRecord[] => [
  R.start(),
  R.context(),
  R.user(1, "list files"),
  R.assistant(1, 1, "Looking.", [
    call("c1", "bash", { command: "ls" }),
    call("c2", "read_file", { path: "a" }),
  ]),
  R.toolStart(1, "c1", "bash"),
  R.result(1, "c1", "bash", "a\nb"),
  R.result(1, "c2", "read_file", "no such file", "error"),
  R.assistant(1, 2, "Two files."),
  R.end(1),
];

describe("admissible", () => {
  const phases: Phase[] = [
    "ReadyForUser",
    "AwaitingAssistantAfterUser",
    "AwaitingToolResults",
    "AwaitingAssistantAfterToolResults",
  ];
  it.each([
    ["user_prompt", [true, true, false, true]],
    ["assistant_message", [false, true, false, true]],
    ["tool_result", [false, false, true, false]],
    ["tool_start", [false, false, true, false]],
    ["cleared", [true, true, false, true]],
    ["turn_end", [true, true, false, true]],
    ["compaction", [true, true, true, true]],
  ] as [RecordType, boolean[]][])("%s", (type, expected) => {
    expect(phases.map((p) => admissible(type, p))).toEqual(expected);
  });
  it("isReady is every phase but AwaitingToolResults", () => {
    expect(phases.map(isReady)).toEqual([true, true, false, true]);
  });
});

describe("RecordFold", () => {
  it("folds a multi-round turn into the model context", () => {
    const f = fold(twoRounds());
    expect(f.messages).toEqual([
      { role: "user", content: [{ type: "text", text: "list files" }] },
      {
        role: "assistant",
        text: "Looking.",
        reasoning: "",
        toolCalls: [call("c1", "bash", { command: "ls" }), call("c2", "read_file", { path: "a" })],
      },
      {
        role: "tool",
        toolCallId: "c1",
        toolName: "bash",
        content: [{ type: "text", text: "a\nb" }],
        isError: false,
      },
      {
        role: "tool",
        toolCallId: "c2",
        toolName: "read_file",
        content: [{ type: "text", text: "no such file" }],
        isError: true,
      },
      { role: "assistant", text: "Two files.", reasoning: "", toolCalls: [] },
    ]);
    expect(f.archive).toHaveLength(9);
    expect(f.phase).toBe("ReadyForUser");
    expect(f.lastTurn).toBe(1);
    expect(f.openTurn).toBeUndefined();
    // The turn_end billed the run; a /retry would start a new one.
    expect(f.latestTurn?.run).toMatchObject({ rounds: 0, modelCalls: 0, toolCalls: 0, usage: usage(0, 0) });
    const before = fold(twoRounds().slice(0, -1));
    expect(before.latestTurn?.run).toMatchObject({
      rounds: 2,
      modelCalls: 2,
      toolCalls: 2,
      toolErrors: 1,
      usage: usage(200, 20),
    });
    expect(f.latestTurn?.rounds.map((r) => r.round)).toEqual([1, 2]);
    expect(f.context?.system).toBe("You are tern.");
    expect(f.model).toBe("openai/gpt-test");
  });

  it("tracks phases and open calls through a round", () => {
    const recs = twoRounds();
    const f = new RecordFold();
    const seen: Phase[] = [];
    for (const line of stamp(recs)) {
      f.apply(line);
      seen.push(f.phase);
    }
    expect(seen.slice(2, 8)).toEqual([
      "AwaitingAssistantAfterUser",
      "AwaitingToolResults",
      "AwaitingToolResults",
      "AwaitingToolResults",
      "AwaitingAssistantAfterToolResults",
      "ReadyForUser",
    ]);
  });

  it("refuses inadmissible lines with a RecordError", () => {
    const base = stamp([R.start(), R.user(1, "x"), R.assistant(1, 1, "", [call("c1", "bash")])]);
    const f = RecordFold.from(base);
    expect(f.openCalls).toEqual([{ id: "c1", name: "bash", turn: 1, started: false }]);
    const next = (rec: NewRecord) => stamp([rec], 4)[0];
    expect(() => f.apply(next(R.user(2, "too early")))).toThrow(
      /user_prompt is not admissible in phase AwaitingToolResults/,
    );
    expect(() => f.apply(next(R.result(1, "nope", "bash", "")))).toThrow(RecordError);
    expect(f.check(R.result(1, "nope", "bash", ""))).toMatch(/not an open call/);
    expect(f.check(R.toolStart(1, "c1", "bash"))).toBeNull();
    expect(f.check(R.end(1))).toMatch(/not admissible/);
    // a failed apply changes nothing
    expect(f.archive).toHaveLength(3);
    expect(() => f.apply(stamp([R.result(1, "c1", "bash", "")], 3)[0])).toThrow(/seq 3 does not follow 3/);
  });

  it("abandons an unanswered prompt at the next prompt and lets /retry answer it after turn_end", () => {
    const f = fold([R.start(), R.user(1, "first"), R.end(1, null, "failed")]);
    expect(f.phase).toBe("AwaitingAssistantAfterUser");
    expect(f.check(R.assistant(1, 1, "retried"))).toBeNull();
    expect(f.check(R.user(2, "second"))).toBeNull();
    expect(f.check(R.user(0, "bad"))).toMatch(/goes back/);
    const g = fold([R.start(), R.user(1, "first"), R.end(1, null, "failed"), R.user(2, "second")]);
    expect(g.messages.map((m) => m.role)).toEqual(["user", "user"]);
    expect(g.openTurn?.turn).toBe(2);
  });

  it("keeps a follow-up prompt in the same turn", () => {
    const f = fold([
      R.start(),
      R.user(1, "a"),
      R.assistant(1, 1, "", [call("c1", "bash")]),
      R.result(1, "c1", "bash", "ok"),
      R.user(1, "also b"),
      R.assistant(1, 2, "done"),
    ]);
    expect(f.lastTurn).toBe(1);
    expect(f.openTurn?.rounds).toHaveLength(2);
    expect(f.messages.at(-2)).toEqual({ role: "user", content: [{ type: "text", text: "also b" }] });
  });

  it("turns notices into user text and keeps harness records out of the model context", () => {
    const f = fold([
      R.start(),
      R.context(),
      { type: "config", model: "anthropic/claude-x" },
      R.user(1, "q"),
      R.assistant(1, 1, "", [call("c1", "bash")]),
      R.toolStart(1, "c1", "bash"),
      R.result(1, "c1", "bash", "out"),
      { type: "notice", turn: 1, text: "output was truncated; continue" },
      R.assistant(1, 2, "a"),
      R.end(1),
    ]);
    expect(f.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool", "user", "assistant"]);
    expect(f.messages[3]).toEqual({
      role: "user",
      content: [{ type: "text", text: "output was truncated; continue" }],
    });
    expect(f.model).toBe("anthropic/claude-x");
    expect(JSON.stringify(f.messages)).not.toContain("system");
  });

  it("gives images their ref and empty data", () => {
    const f = fold([
      R.start(),
      {
        type: "user_prompt",
        turn: 1,
        content: [
          { type: "text", text: "see" },
          { type: "image", mediaType: "image/png", ref: "ab.png" },
        ],
      },
    ]);
    expect(f.messages[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "see" },
        { type: "image", mediaType: "image/png", data: "", ref: "ab.png" },
      ],
    });
  });

  it("cleared drops the model context; turn numbers go on", () => {
    const f = fold([...twoRounds(), { type: "cleared" }, R.user(2, "fresh")]);
    expect(f.messages).toEqual([{ role: "user", content: [{ type: "text", text: "fresh" }] }]);
    expect(f.archive).toHaveLength(11);
    expect(f.lastTurn).toBe(2);
  });

  it("rewound withdraws later turns from the model context only", () => {
    const f = fold([
      R.start(),
      R.user(1, "one"),
      R.assistant(1, 1, "1"),
      R.end(1),
      R.user(2, "two"),
      R.assistant(2, 1, "2"),
      R.end(2),
      { type: "rewound", toTurn: 1 },
    ]);
    expect(f.messages.map((m) => (m.role === "assistant" ? m.text : m.role))).toEqual(["user", "1"]);
    expect(f.archive).toHaveLength(8);
    expect(f.lastTurn).toBe(2);
    expect(f.check(R.user(3, "three"))).toBeNull();
  });

  it("shed compaction replaces listed tool results with their placeholders", () => {
    const recs = [...twoRounds()];
    const f = fold([
      ...recs,
      {
        type: "compaction",
        stage: "shed",
        fromSeq: 3,
        toSeq: 7,
        placeholders: { "6": "[bash output shed; re-run it]", "7": "[read_file shed]" },
        beforeTokens: 1000,
        afterTokens: 200,
      },
    ]);
    const tools = f.messages.filter((m) => m.role === "tool");
    expect(tools.map((t) => (t.role === "tool" ? t.content : null))).toEqual([
      [{ type: "text", text: "[bash output shed; re-run it]" }],
      [{ type: "text", text: "[read_file shed]" }],
    ]);
    expect(tools[0]).toMatchObject({ toolCallId: "c1", isError: false });
    expect(f.messages).toHaveLength(5);
  });

  it("summarize compaction replaces the range by one user message; a later one can cover it", () => {
    const recs: NewRecord[] = [
      R.start(),
      R.user(1, "one"),
      R.assistant(1, 1, "1"),
      R.end(1),
      R.user(2, "two"),
      R.assistant(2, 1, "2"),
      R.end(2),
      {
        type: "compaction",
        stage: "summarize",
        fromSeq: 2,
        toSeq: 4,
        summary: "S1",
        beforeTokens: 9,
        afterTokens: 1,
      },
      R.user(3, "three"),
    ];
    const f = fold(recs);
    const texts = () =>
      f.messages.map((m) =>
        m.role === "assistant"
          ? m.text
          : m.role === "user" && m.content[0].type === "text"
            ? m.content[0].text
            : "?",
      );
    expect(texts()).toEqual(["S1", "two", "2", "three"]);
    f.apply(
      stamp(
        [
          {
            type: "compaction",
            stage: "summarize",
            fromSeq: 2,
            toSeq: 7,
            summary: "S2",
            beforeTokens: 9,
            afterTokens: 1,
          },
        ],
        10,
      )[0],
    );
    expect(texts()).toEqual(["S2", "three"]);
    expect(
      f.check({ type: "compaction", stage: "shed", fromSeq: 5, toSeq: 99, beforeTokens: 0, afterTokens: 0 }),
    ).toMatch(/not within/);
  });

  it("shed arguments replace single calls' arguments; ids, names, text and results stay", () => {
    const write = call("w1", "write_file", { path: "a.txt", content: "x".repeat(5000) });
    const f = fold([
      R.start(),
      R.user(1, "write"),
      {
        ...(R.assistant(1, 1, "Writing.", [write, call("c2", "bash", { command: "ls" })]) as object),
        reasoning: "r",
      } as NewRecord,
      R.result(1, "w1", "write_file", "wrote a.txt"),
      R.result(1, "c2", "bash", "a.txt"),
      R.assistant(1, 2, "Done."),
      {
        type: "compaction",
        stage: "shed",
        fromSeq: 3,
        toSeq: 3,
        arguments: { "3": { w1: '{"path":"a.txt","content":"xx… [shed by compaction]"}' } },
        beforeTokens: 1300,
        afterTokens: 20,
      },
    ]);
    expect(f.messages[1]).toEqual({
      role: "assistant",
      text: "Writing.",
      reasoning: "",
      toolCalls: [
        { id: "w1", name: "write_file", arguments: '{"path":"a.txt","content":"xx… [shed by compaction]"}' },
        { id: "c2", name: "bash", arguments: '{"command":"ls"}' },
      ],
    });
    expect(f.messages.filter((m) => m.role === "tool")).toHaveLength(2);
  });

  it("a summary of the open turn's older rounds stands after its prompt; the turn goes on", () => {
    const f = fold([
      R.start(),
      R.user(1, "the task"),
      R.assistant(1, 1, "", [call("c1", "bash", { command: "a" })]),
      R.result(1, "c1", "bash", "out a"),
      R.assistant(1, 2, "", [call("c2", "bash", { command: "b" })]),
      R.result(1, "c2", "bash", "out b"),
      R.assistant(1, 3, "", [call("c3", "bash", { command: "c" })]),
      R.result(1, "c3", "bash", "out c"),
      {
        type: "compaction",
        stage: "summarize",
        fromSeq: 3,
        toSeq: 6,
        summary: "[Summary of turn 1 rounds 1–2]",
        beforeTokens: 9,
        afterTokens: 1,
      },
      R.assistant(1, 4, "", [call("c4", "bash", { command: "d" })]),
    ]);
    expect(f.phase).toBe("AwaitingToolResults");
    expect(f.openTurn?.turn).toBe(1);
    const shape = f.messages.map((m) =>
      m.role === "assistant"
        ? `a:${m.toolCalls[0]?.id}`
        : m.role === "tool"
          ? `t:${m.toolCallId}`
          : `u:${(m.content[0] as any).text}`,
    );
    expect(shape).toEqual(["u:the task", "u:[Summary of turn 1 rounds 1–2]", "a:c3", "t:c3", "a:c4"]);
    expect(f.check(R.result(1, "c4", "bash", "out d"))).toBeNull();
  });

  it("does not let callers' copies of messages change under them", () => {
    const f = fold(twoRounds());
    const before = f.messages;
    const snapshot = JSON.stringify(before);
    f.apply(
      stamp(
        [
          {
            type: "compaction",
            stage: "shed",
            fromSeq: 6,
            toSeq: 6,
            placeholders: { "6": "x" },
            beforeTokens: 0,
            afterTokens: 0,
          },
        ],
        10,
      )[0],
    );
    expect(JSON.stringify(before)).toBe(snapshot);
    expect(JSON.stringify(f.messages)).not.toBe(snapshot);
  });

  // Its speed is the bench's resume row (10,000 rounds, spawn to first request ≤ 1 s).
  it("folds a 10,000-round record into every message, in order", () => {
    const recs: NewRecord[] = [R.start(), R.context(), R.user(1, "go")];
    for (let i = 1; i <= 10_000; i++) {
      recs.push(R.assistant(1, i, `round ${i}`, [call(`c${i}`, "bash", { command: `echo ${i}` })]));
      recs.push(R.toolStart(1, `c${i}`, "bash"));
      recs.push(R.result(1, `c${i}`, "bash", `${i}\n`.repeat(20)));
    }
    recs.push(R.assistant(1, 10_001, "done"), R.end(1));
    const lines = stamp(recs);
    const f = RecordFold.from(lines);
    expect(f.messages).toHaveLength(20_002);
    expect(f.messages[1]).toMatchObject({ role: "assistant", text: "round 1" });
    expect(f.messages[20_000]).toMatchObject({ role: "tool", toolCallId: "c10000" });
    expect(f.messages.at(-1)).toMatchObject({ role: "assistant", text: "done" });
    expect(f.phase).toBe("ReadyForUser");
  });
});
