// R-COMP-7 beside the output cap: a recalled page never exceeds
// `toolOutputLimit`, so the cap never cuts one in the middle, and each next page starts exactly
// where the one before ended; the pages join to the whole round.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiToolCalls } from "../support/openai-script.js";
import { pageThroughRecall, useHarness } from "./harness.js";

const h = useHarness();

describe("recall pages under the output cap", () => {
  it("pages of a round larger than toolOutputLimit each fit the cap and continue where the last ended", async () => {
    // Six reads of ~4,000 chars in one batch: a round of ~24,000 chars, recalled with a 5,000 cap
    // in a window whose quarter (250,000 tokens) is far above it.
    for (let i = 1; i <= 6; i++)
      writeFileSync(join(h.dirs.workspace, `f${i}.txt`), `${String(i).repeat(79)}\n`.repeat(50));
    const limit = 5000;
    const t = await h.start({
      config: (c: any) => {
        c.models["local/mock-1"] = { contextWindow: 1_000_000 };
        c.toolOutputLimit = limit;
      },
    });
    const reads = Array.from({ length: 6 }, (_, i) => ({
      id: `c${i + 1}`,
      name: "read_file",
      args: { path: `f${i + 1}.txt` },
    }));
    h.provider.enqueue(
      openaiToolCalls(reads),
      openaiToolCalls([{ id: "g1", name: "glob", args: { pattern: "*.md" } }]),
    );
    const pages = pageThroughRecall(h.provider, "g1");
    const out = await t.prompt("go");
    expect(out.stopReason).toBe("completed");
    expect(pages.length).toBeGreaterThan(4);
    for (const page of pages) {
      expect(page.length).toBeLessThanOrEqual(limit);
      expect(page).not.toContain("characters elided");
    }
    // Each page starts where the one before ended, and the last is the end of the text.
    const spans = pages.map((p) =>
      /\[page: chars (\d+)–(\d+) of (\d+);[^\n]*\]$/.exec(p)!.slice(1).map(Number),
    );
    expect(spans[0][0]).toBe(0);
    for (let i = 1; i < spans.length; i++) expect(spans[i][0]).toBe(spans[i - 1][1]);
    expect(spans.at(-1)![1]).toBe(spans.at(-1)![2]);
    // Joined (each page's own chars, as its footer counts them), the pages are the whole round:
    // every line of every read, exactly once.
    const text = pages.map((p, i) => p.slice(0, spans[i][1] - spans[i][0])).join("");
    expect(text.length).toBe(spans[0][2]);
    for (let i = 1; i <= 6; i++) expect(text.match(new RegExp(`${i}{79}`, "g"))).toHaveLength(50);
  });
});
