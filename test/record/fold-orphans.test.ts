// A record written before summary ranges spanned their highest seq still folds into a context
// every API accepts: the results such a summary left behind without their call go with it.
import { describe, expect, it } from "vitest";
import { RecordFold } from "../../src/record/fold.js";
import type { NewRecord } from "../../src/record/types.js";
import { call, R, stamp } from "./helpers.js";

const fold = (recs: NewRecord[]) => RecordFold.from(stamp(recs));

describe("a summary over a batch committed out of call order", () => {
  it("a summary whose range ended before a batch's later-committed result takes that result too", () => {
    // Written by older versions: `fast` finished first (seq 4), `slow` was cut later (seq 5); the
    // range ended at the entry last in call order (fast, seq 4), leaving slow without its call.
    const f = fold([
      R.start(),
      R.user(1, "one"),
      R.assistant(1, 1, "", [
        call("slow", "bash", { command: "sleep 9" }),
        call("fast", "bash", { command: "ls" }),
      ]),
      R.result(1, "fast", "bash", "a"),
      R.result(1, "slow", "bash", "interrupted: cancelled", "error"),
      R.end(1),
      R.user(2, "two"),
      R.assistant(2, 1, "", [call("slow", "bash", { command: "ls" })]),
      R.result(2, "slow", "bash", "b"),
      R.assistant(2, 2, "2"),
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
    ]);
    // A later call that reuses the id keeps its result.
    expect(f.messages.map((m) => m.role)).toEqual(["user", "user", "assistant", "tool", "assistant"]);
    expect(f.messages[3]).toMatchObject({
      role: "tool",
      toolCallId: "slow",
      content: [{ type: "text", text: "b" }],
    });
  });
});
