// docs/claude-tool-names.md is the table in src/config/claude-tools.ts, rendered (R-HOOK-2
// amended: "The mapping is one table, documented"). TERN_UPDATE_DOCS=1 rewrites the page.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeToolNamesDoc } from "../../src/config/claude-tools-doc.js";
import { CLAUDE_TOOLS } from "../../src/config/claude-tools.js";

const DOC = resolve(import.meta.dirname, "../../docs/claude-tool-names.md");

describe("docs/claude-tool-names.md", () => {
  it("is generated from the mapping table", () => {
    if (process.env.TERN_UPDATE_DOCS === "1") writeFileSync(DOC, claudeToolNamesDoc());
    expect(readFileSync(DOC, "utf8")).toBe(claudeToolNamesDoc());
  });

  it("names every tool the amended R-HOOK-2 lists", () => {
    const names = CLAUDE_TOOLS.map((t) => t.claude);
    for (const n of ["Bash", "Read", "Write", "Edit", "MultiEdit", "Glob", "Grep", "WebFetch", "Task"])
      expect(names).toContain(n);
    for (const n of ["TodoWrite", "ExitPlanMode", "BashOutput", "KillShell"]) expect(names).toContain(n);
  });
});
