import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecordFold } from "../../src/record/fold.js";
import { loadRecord } from "../../src/record/load.js";
import { isReady } from "../../src/record/phases.js";
import { quiesce, recoverOnLoad } from "../../src/record/quiesce.js";
import type { NewRecord } from "../../src/record/types.js";
import { RecordWriter } from "../../src/record/writer.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { call, R, stamp, usage } from "./helpers.js";

const threeCalls = (): NewRecord[] => [
  R.start(),
  R.user(1, "do three things"),
  R.assistant(1, 1, "ok", [call("a", "bash"), call("b", "edit_file"), call("c", "grep")], usage(50, 5)),
  R.toolStart(1, "a", "bash"),
  R.result(1, "a", "bash", "done"),
  R.toolStart(1, "b", "edit_file"),
];

describe("quiesce", () => {
  it("answers every owed call in call order: not_executed, or interrupted when started", () => {
    const f = RecordFold.from(stamp(threeCalls()));
    const recs = quiesce(f, "cancelled");
    expect(recs).toEqual([
      {
        type: "tool_result",
        turn: 1,
        id: "b",
        name: "edit_file",
        outcome: "interrupted",
        content: [
          {
            type: "text",
            text: "interrupted: cancelled by user while this call was running; its effects are unknown",
          },
        ],
      },
      {
        type: "tool_result",
        turn: 1,
        id: "c",
        name: "grep",
        outcome: "not_executed",
        content: [{ type: "text", text: "not executed: cancelled by user" }],
      },
    ]);
    for (const line of stamp(recs, 7)) f.apply(line);
    expect(isReady(f.phase)).toBe(true);
    expect(f.check(R.user(2, "next"))).toBeNull();
  });

  it("uses the session-ended wording", () => {
    const f = RecordFold.from(stamp(threeCalls()));
    const texts = quiesce(f, "session_ended").map((r) => (r.type === "tool_result" ? r.content[0] : null));
    expect(texts).toEqual([
      {
        type: "text",
        text: "interrupted: the session ended while this call was running; its effects are unknown",
      },
      { type: "text", text: "not executed: the session ended before it ran" },
    ]);
  });

  it("writes nothing when nothing is owed, and never an assistant message", () => {
    const f = RecordFold.from(stamp([R.start(), R.user(1, "hi")]));
    expect(quiesce(f, "failed")).toEqual([]);
    const recovered = recoverOnLoad(f);
    expect(recovered.map((r) => r.type)).toEqual(["turn_end"]);
    expect(
      recoverOnLoad(RecordFold.from(stamp([R.start(), R.user(1, "x"), R.assistant(1, 1, "y"), R.end(1)]))),
    ).toEqual([]);
  });
});

describe("recoverOnLoad", () => {
  it("closes a crash-cut turn with results and an aborted turn_end counted from the record", () => {
    const lines = stamp(threeCalls());
    const f = RecordFold.from(lines);
    const recs = recoverOnLoad(f, { cost: (u) => u.prompt * 0.001 });
    expect(recs.map((r) => r.type)).toEqual(["tool_result", "tool_result", "turn_end"]);
    expect(recs[2]).toEqual({
      type: "turn_end",
      turn: 1,
      stopReason: "aborted",
      rounds: 1,
      modelCalls: 1,
      toolCalls: 2, // a ran, b was running; c never ran
      toolErrors: 1, // b interrupted
      usage: usage(50, 5),
      cost: 0.05,
      durationMs: 4000, // ts of the 6th line minus the 2nd (stamp spaces lines by 1 s)
      startedAt: lines[1].ts,
    });
    for (const line of stamp(recs, 7)) f.apply(line);
    expect(f.openTurn).toBeUndefined();
    expect(f.check(R.user(2, "again"))).toBeNull();
    expect(recoverOnLoad(f)).toEqual([]);
  });

  describe("failed attempts kept beside the record (unbilled.json)", () => {
    // Turn 2 was cut while a retry waited: two failed attempts had reported usage.
    const cut = (): NewRecord[] => [
      R.start(),
      R.user(1, "one"),
      R.assistant(1, 1, "done", [], usage(10, 1)),
      R.end(1),
      R.user(2, "two"),
    ];
    const kept = { turn: 2, attempts: 2, usage: usage(300, 7), afterSeq: 5 };
    const end = (recs: NewRecord[]) => recs.find((r) => r.type === "turn_end") as any;

    it("are billed in the aborted turn_end", () => {
      const f = RecordFold.from(stamp(cut()));
      const out = end(recoverOnLoad(f, { cost: (u) => u.prompt * 0.001, unbilled: kept }));
      expect(out).toMatchObject({
        turn: 2,
        stopReason: "aborted",
        modelCalls: 2,
        usage: usage(300, 7),
        cost: 0.3,
      });
    });

    it("are not billed twice once the round's answer or a turn_end followed them", () => {
      const answered = RecordFold.from(
        stamp([...cut(), R.assistant(2, 1, "", [call("a", "bash")], usage(20, 2))]),
      );
      expect(end(recoverOnLoad(answered, { unbilled: kept }))).toMatchObject({
        modelCalls: 1,
        usage: usage(20, 2),
      });
      // A turn 2 that ended (failed) and was run again by /retry: the file is the old run's.
      const retried = RecordFold.from(stamp([...cut(), R.end(2, 0.1, "failed"), R.user(2, "two")]));
      expect(end(recoverOnLoad(retried, { unbilled: kept }))).toMatchObject({
        modelCalls: 0,
        usage: usage(0, 0),
      });
    });

    it("belong to their turn only", () => {
      const f = RecordFold.from(stamp(cut()));
      expect(end(recoverOnLoad(f, { unbilled: { ...kept, turn: 1 } }))).toMatchObject({ modelCalls: 0 });
    });
  });
});

describe("resume", () => {
  let dirs: TempDirs;
  beforeEach(() => {
    dirs = makeTempDirs();
  });
  afterEach(() => dirs.cleanup());

  it("a torn, crash-cut record resumes into a legal state", () => {
    const file = join(dirs.root, "record.jsonl");
    const w = RecordWriter.open(file);
    for (const r of threeCalls()) w.append(r);
    w.close();
    appendFileSync(file, '{"v":1,"seq":7,"ts":"x","type":"tool_res');
    const loaded = loadRecord(file);
    expect(loaded.warnings).toHaveLength(1);
    const f = RecordFold.from(loaded.lines);
    const w2 = RecordWriter.open(file);
    for (const r of recoverOnLoad(f)) f.apply(w2.append(r));
    w2.close();
    const again = RecordFold.from(loadRecord(file).lines);
    expect(again.phase).toBe("AwaitingAssistantAfterToolResults");
    expect(again.openCalls).toEqual([]);
    expect(again.openTurn).toBeUndefined();
    expect(again.messages.filter((m) => m.role === "tool")).toHaveLength(3);
    expect(readFileSync(file, "utf8")).not.toContain("tool_res\n");
  });

  // Its speed is the bench's resume row (10,000 rounds, spawn to first request ≤ 1 s).
  it("loads and folds a 10,000-round record from disk, and recovery only ends the open turn", () => {
    const file = join(dirs.root, "big.jsonl");
    const w = RecordWriter.open(file);
    w.append(R.start());
    w.append(R.context("x".repeat(20_000)));
    w.append(R.user(1, "go"));
    for (let i = 1; i <= 10_000; i++) {
      w.append(R.assistant(1, i, `round ${i}`, [call(`c${i}`, "bash", { command: `echo ${i}` })]));
      w.append(R.toolStart(1, `c${i}`, "bash"));
      w.append(R.result(1, `c${i}`, "bash", `${i}\n`.repeat(20)));
    }
    w.close();
    const loaded = loadRecord(file);
    expect(loaded.warnings).toEqual([]);
    const f = RecordFold.from(loaded.lines);
    const recs = recoverOnLoad(f);
    expect(f.messages).toHaveLength(20_001);
    expect(f.messages.at(-1)).toMatchObject({ role: "tool", toolCallId: "c10000" });
    expect(recs.map((r) => r.type)).toEqual(["turn_end"]);
  });
});
