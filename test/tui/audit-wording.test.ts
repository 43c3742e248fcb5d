// The counts read as English: a batch one call longer than its rows says
// "1 more call", and a call before them "1 earlier call".
import { describe, expect, it } from "vitest";
import { stripAnsi } from "../../src/tui/ansi.js";
import { approvalRows, newApproval } from "../../src/tui/approval.js";
import { builtinTools } from "../../src/tools/builtin/all.js";
import { presentCall } from "../../src/tools/present.js";

const call = (i: number) => {
  const args = JSON.stringify({ command: `echo ${i}` });
  return {
    id: `c${i}`,
    name: "bash",
    arguments: args,
    presentation: presentCall(
      builtinTools.find((t) => t.name === "bash"),
      args,
    ),
    paths: [],
  };
};

describe("counts of what is left out", () => {
  it("a batch of six at its first and last call", () => {
    const calls = Array.from({ length: 6 }, (_, i) => call(i));
    const first = approvalRows(newApproval(calls, 0), 80, 20, 1000).map(stripAnsi);
    expect(first).toContain("  … 1 more call");
    const a = newApproval(calls, 0);
    a.answers = ["approved", "approved", "approved", "approved", "approved", undefined];
    const last = approvalRows(a, 80, 20, 1000).map(stripAnsi);
    expect(last).toContain("  … 1 earlier call");
  });
});
