// The phase a line leads to (phases.ts `phaseAfter`), beside the rule that admits it: every line
// a phase admits leads somewhere `admissible` lets the exchange go on from.
import { describe, expect, it } from "vitest";
import { admissible, phaseAfter } from "../../src/record/phases.js";
import type { Phase, RecordLine } from "../../src/record/types.js";

const line = (type: string) => ({ type }) as RecordLine;

describe("phaseAfter", () => {
  it("follows an exchange: prompt, answer with calls, results, answer", () => {
    let phase: Phase = "ReadyForUser";
    phase = phaseAfter(line("user_prompt"), phase, 0);
    expect(phase).toBe("AwaitingAssistantAfterUser");
    phase = phaseAfter(line("assistant_message"), phase, 2);
    expect(phase).toBe("AwaitingToolResults");
    expect(phaseAfter(line("tool_result"), phase, 1)).toBe("AwaitingToolResults");
    phase = phaseAfter(line("tool_result"), phase, 0);
    expect(phase).toBe("AwaitingAssistantAfterToolResults");
    expect(admissible("assistant_message", phase)).toBe(true);
    expect(phaseAfter(line("assistant_message"), phase, 0)).toBe("ReadyForUser");
  });

  it("turn_end keeps the phase; withdrawals and a clear make it ready", () => {
    expect(phaseAfter(line("turn_end"), "AwaitingAssistantAfterUser", 0)).toBe("AwaitingAssistantAfterUser");
    for (const type of ["cleared", "rewound", "undo", "redo"])
      expect(phaseAfter(line(type), "AwaitingAssistantAfterToolResults", 0)).toBe("ReadyForUser");
    expect(phaseAfter(line("notice"), "ReadyForUser", 0)).toBe("AwaitingAssistantAfterUser");
    expect(phaseAfter(line("compaction"), "AwaitingToolResults", 1)).toBe("AwaitingToolResults");
  });

  it("a files-only restore and its redo keep the phase: the conversation did not move (R-UI-29)", () => {
    for (const type of ["undo", "redo"]) {
      const filesOnly = { type, filesOnly: true } as RecordLine;
      expect(phaseAfter(filesOnly, "AwaitingAssistantAfterUser", 0)).toBe("AwaitingAssistantAfterUser");
      expect(phaseAfter(filesOnly, "ReadyForUser", 0)).toBe("ReadyForUser");
    }
  });
});
