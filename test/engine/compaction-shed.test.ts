// The shed stage's cutting rules (R-COMP-2): tool-call arguments stay valid JSON of the same shape
// with long strings cut and a note naming turn, round and recall; long replies are cut the same way.
import { describe, expect, it } from "vitest";
import { cutReply, shrinkArguments } from "../../src/engine/compaction/compaction-shed.js";

const where = { turn: 3, round: 7 };

describe("shed cuts", () => {
  it("cuts long edit texts inside valid JSON, keeping the path and short values", () => {
    const args = {
      path: "src/app.ts",
      old_string: "o".repeat(3000),
      new_string: "n".repeat(2500),
      replace_all: true,
    };
    const out = shrinkArguments({ id: "e1", name: "edit_file", arguments: JSON.stringify(args) }, where)!;
    const parsed = JSON.parse(out);
    expect(parsed.path).toBe("src/app.ts");
    expect(parsed.replace_all).toBe(true);
    expect(parsed.old_string).toMatch(
      /^o{200}… \[shed by compaction: 2800 more chars of this edit_file old_string from turn 3 round 7; recall \{"turn": 3, "round": 7\} reads the call in full\]$/,
    );
    expect(parsed.new_string).toMatch(
      /^n{200}… \[shed by compaction: 2300 more chars of this edit_file new_string/,
    );
    expect(out.length).toBeLessThan(1000);
    // Shedding again changes nothing.
    expect(shrinkArguments({ id: "e1", name: "edit_file", arguments: out }, where)).toBeUndefined();
  });

  it("cuts strings nested in arrays and objects (multi-edit style arguments)", () => {
    const args = { path: "a.ts", edits: [{ old_string: "x".repeat(1200), new_string: "y" }] };
    const out = JSON.parse(
      shrinkArguments({ id: "m1", name: "multi_edit", arguments: JSON.stringify(args) }, where)!,
    );
    expect(out.edits[0].old_string).toMatch(
      /^x{200}… \[shed by compaction: 1000 more chars of this multi_edit old_string/,
    );
    expect(out.edits[0].new_string).toBe("y");
  });

  it("leaves short arguments alone and turns unparsable long ones into an object holding the note", () => {
    expect(shrinkArguments({ id: "b1", name: "bash", arguments: '{"command":"ls"}' }, where)).toBeUndefined();
    const broken = `{"content": "${"z".repeat(2000)}`;
    const out = JSON.parse(shrinkArguments({ id: "w1", name: "write_file", arguments: broken }, where)!);
    expect(out).toEqual({
      shed_by_compaction: `${broken.length} chars of write_file arguments from turn 3 round 7; recall {"turn": 3, "round": 7} reads the call in full`,
    });
  });

  it("cuts a long reply to its head, naming turn and round", () => {
    expect(cutReply("short", where)).toBeUndefined();
    expect(cutReply("t".repeat(5000), where)).toMatch(
      /^t{600}\n\[shed by compaction: 4400 more chars of this reply from turn 3 round 7; recall \{"turn": 3, "round": 7\} reads them\]$/,
    );
  });
});
