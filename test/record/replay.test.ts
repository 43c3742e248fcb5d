// A record line the fold refuses is named by its file and line, like every other load error.
import { describe, expect, it } from "vitest";
import { RecordError } from "../../src/record/errors.js";
import { RecordFold } from "../../src/record/fold.js";
import { parseRecord } from "../../src/record/load.js";
import { replayInto } from "../../src/record/replay.js";
import { call, R, stamp } from "./helpers.js";

const text = (lines: object[]) => `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;

describe("replayInto", () => {
  const lines = stamp([
    R.start(),
    R.user(1, "one"),
    R.assistant(1, 1, "", [call("a", "bash", { command: "ls" }), call("b", "bash", { command: "pwd" })]),
    R.result(1, "a", "bash", "x"),
    R.result(1, "b", "bash", "y"),
    R.assistant(1, 2, "done"),
    R.end(1),
  ]);

  it("folds an admissible record", () => {
    const fold = replayInto(new RecordFold(), parseRecord(text(lines), "/s/record.jsonl"));
    expect(fold.archive).toHaveLength(lines.length);
  });

  it("names the file and the line (not only the seq) of a line out of phase", () => {
    // A result deleted from the middle: the next assistant message is line 5, seq 6.
    const damaged = lines.filter((l) => !(l.type === "tool_result" && l.id === "b"));
    const loaded = parseRecord(text(damaged), "/s/record.jsonl");
    expect(() => replayInto(new RecordFold(), loaded)).toThrow(RecordError);
    expect(() => replayInto(new RecordFold(), loaded)).toThrow(/^\/s\/record\.jsonl: line 5: record seq 6: /);
  });

  it("counts blank lines of the file when it names one", () => {
    const damaged = lines.filter((l) => !(l.type === "tool_result" && l.id === "b"));
    const withBlank = text(damaged).replace("\n", "\n\n");
    expect(() => replayInto(new RecordFold(), parseRecord(withBlank, "f"))).toThrow(/^f: line 6: /);
  });
});
