// The restored-path list `tern undo` prints: one line per path, also for a file name holding a
// newline (shown quoted, so it cannot pass for two paths).
import { describe, expect, it } from "vitest";
import { formatRestored } from "../../src/engine/undo/undo.js";

describe("formatRestored", () => {
  it("prints one line per path and quotes a name with a newline or another control character", () => {
    const text = formatRestored([
      { action: "deleted", path: "nl\nname" },
      { action: "changed", path: "tab\there.txt" },
      { action: "created", path: "plain ñame.txt" },
    ]);
    expect(text.split("\n").filter(Boolean)).toEqual([
      '  deleted  "nl\\nname"',
      '  changed  "tab\\there.txt"',
      "  created  plain ñame.txt",
    ]);
  });
});
