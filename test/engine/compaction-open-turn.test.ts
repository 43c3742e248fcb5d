// SPEC §7 inside one open turn: R-COMP-4 measured on one scale (a shed that removed most of the
// real request goes on; one that freed less than 10% stops), the open turn's older rounds
// summarized and replayed exactly on resume, and recall handing out pages.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecord } from "../../src/record/load.js";
import { findSession, recordFile } from "../../src/record/store.js";
import { playLongTurn } from "../support/long-turn.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { pageThroughRecall, toolMessages, useHarness } from "./harness.js";

const h = useHarness();

function windowed(contextWindow: number, threshold = 0.5) {
  return (c: any) => {
    c.autoCompactThreshold = threshold;
    c.models["local/mock-1"] = { contextWindow };
  };
}

const lines = (id: string) => loadRecord(recordFile(findSession(h.dirs.home, id)!.dir)).lines;

describe("compaction within the open turn", () => {
  it("a shed that removed most of the real request goes on, though the provider's count is far above the estimate", async () => {
    writeFileSync(join(h.dirs.workspace, "big.txt"), `${"b".repeat(99)}\n`.repeat(200));
    // Limit 50,000 tokens. The provider reports 60,000 for a context the estimate puts near 8,000:
    // shedding the big read removes most of both, so the turn must go on.
    const t = await h.start({ config: windowed(100000) });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "big.txt" } }]),
      openaiToolCalls([{ id: "c2", name: "glob", args: { pattern: "*.md" } }]),
      openaiToolCalls([{ id: "c3", name: "glob", args: { pattern: "*.md" } }]),
      openaiToolCalls([{ id: "c4", name: "glob", args: { pattern: "*.md" } }], { prompt_tokens: 60000 }),
      openaiText("done"),
    );
    const out = await t.prompt("go");
    expect(out.error).toBeUndefined();
    expect(out.stopReason).toBe("completed");
    const shed = t.events.filter((e) => e.type === "compaction");
    expect(shed.map((e: any) => e.stage)).toEqual(["shed"]);
    const c1 = toolMessages(h.provider.requests.at(-1)!.body).find((m) => m.id === "c1")!;
    expect(c1.content).toMatch(/^\[shed by compaction: read_file result from turn 1 round 1/);
  });

  it("a compaction that frees less than 10% (on the provider's scale) stops the turn", async () => {
    // The prompt (verbatim, never compacted) is nearly all of the context; the provider reports
    // just over the limit, so compaction can only free a sliver of it.
    writeFileSync(join(h.dirs.workspace, "mid.txt"), "m".repeat(2000));
    const t = await h.start({ config: windowed(100000) });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "mid.txt" } }]),
      openaiToolCalls([{ id: "c2", name: "glob", args: { pattern: "*.md" } }]),
      openaiToolCalls([{ id: "c3", name: "glob", args: { pattern: "*.md" } }]),
      openaiToolCalls([{ id: "c4", name: "glob", args: { pattern: "*.md" } }], { prompt_tokens: 51000 }),
      openaiText("summary of rounds 1-2"),
      openaiText("never sent"),
    );
    const out = await t.prompt(`the task: ${"p".repeat(40000)}`);
    expect(out.stopReason).toBe("context_overflow");
    expect(out.error?.message).toMatch(
      /^compaction freed less than 10% of the context \(\d+ of 5100\d tokens\)$/,
    );
    // Four rounds and the summary of the open turn's older rounds; no fifth round.
    expect(h.provider.requests).toHaveLength(5);
    expect(h.provider.pending).toBe(1);
  });

  it("summarizes the open turn's older rounds, keeps prompt and newest rounds, and resume replays it exactly", async () => {
    writeFileSync(join(h.dirs.workspace, "big.txt"), `${"y".repeat(99)}\n`.repeat(40));
    const steps = Array.from({ length: 60 }, () => ({ name: "read_file", args: { path: "big.txt" } }));
    const t = await h.start({ config: windowed(6000, 0.8) });
    playLongTurn(h.provider, "openai-chat", steps, "finished", true);
    const out = await t.prompt("read it sixty times");
    expect(out.stopReason).toBe("completed");
    const summaries = lines(t.session.id).filter((l) => l.type === "compaction" && l.stage === "summarize");
    expect(summaries.length).toBeGreaterThan(0);

    // The last request: prompt verbatim first, then the summary, then whole newest rounds.
    const last = h.provider.requests.at(-1)!.body;
    expect(last.messages[1]).toEqual({ role: "user", content: "read it sixty times" });
    expect(last.messages[2].role).toBe("user");
    expect(last.messages[2].content).toMatch(/^\[Summary of turn 1 rounds 1–\d+, written by compaction\./);
    expect(last.messages[2].content).toContain('recall {"turn": N, "round": R}');
    expect(last.messages[3].role).toBe("assistant");
    const calls = last.messages.flatMap((m: any) => (m.tool_calls ?? []).map((c: any) => c.id));
    expect(toolMessages(last).map((m) => m.id)).toEqual(calls);

    // Resume folds the records that covered part of the then open turn: the next request starts
    // with exactly what the model saw, plus the final answer.
    await t.session.close();
    const resumed = await h.start({ config: windowed(6000, 0.8), resume: { id: t.session.id } });
    h.provider.setResponder(undefined);
    h.provider.enqueue(openaiText("after resume"));
    await resumed.prompt("next");
    const after = h.provider.requests.at(-1)!.body;
    expect(after.messages.slice(0, last.messages.length + 1)).toEqual([
      ...last.messages,
      { role: "assistant", content: "finished" },
    ]);
  });

  it("recall pages a big round: at most a quarter of the window, each page naming the next offset", async () => {
    writeFileSync(join(h.dirs.workspace, "big.txt"), `${"r".repeat(99)}\n`.repeat(400));
    const window = 16000;
    // The whole 40,000-character read must reach the round (above the default 30,000 result cap).
    const t = await h.start({
      config: (c: any) => {
        windowed(window, 0.8)(c);
        c.toolOutputLimit = 100_000;
      },
    });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "big.txt" } }]),
      openaiToolCalls([{ id: "c2", name: "read_file", args: { path: "big.txt", limit: 20 } }]),
    );
    // Then recall round 1, and follow each page's offset until the last page.
    const pages = pageThroughRecall(h.provider, "c2");
    const out = await t.prompt("go");
    expect(out.stopReason).toBe("completed");
    expect(pages.length).toBeGreaterThan(2);
    // A quarter of the window: window/4 tokens, i.e. `window` chars by the chars/4 estimate.
    for (const page of pages) expect(page.length).toBeLessThanOrEqual(window);
    // The pages join to the whole round: every line of the read comes back exactly once.
    const text = pages.map((p) => p.replace(/\n?\[page: chars \d+–\d+ of \d+; [^\n]*\]$/, "")).join("");
    expect(text.match(/r{99}/g)).toHaveLength(400);
    expect(text).toContain("tool call c1 read_file");
    expect(pages.at(-1)).toMatch(/\[page: chars \d+–(\d+) of \1; this is the end\]$/);
    expect(pages[0]).toMatch(
      /\[page: chars 0–\d+ of \d+; recall \{"turn": 1, "round": 1, "offset": \d+\} reads the next page\]$/,
    );
  });

  it("a recalled page is smaller than a quarter when the context has less room, and the next request fits", async () => {
    writeFileSync(join(h.dirs.workspace, "big.txt"), `${"q".repeat(99)}\n`.repeat(400));
    const window = 16000;
    const t = await h.start({ config: windowed(window, 0.8) });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "big.txt", limit: 100 } }]),
      openaiToolCalls([{ id: "c2", name: "glob", args: { pattern: "*.md" } }]),
      openaiToolCalls([{ id: "c3", name: "glob", args: { pattern: "*.md" } }]),
      openaiToolCalls([{ id: "c4", name: "glob", args: { pattern: "*.md" } }]),
      openaiToolCalls([{ id: "r1", name: "recall", args: { turn: 1, round: 1 } }]),
      openaiText("ok"),
    );
    // The prompt stays verbatim and takes most of the room: about 9,000 of the 12,800-token limit,
    // so the ~2,700-token round recalled cannot come back whole.
    const out = await t.prompt(`context: ${"p".repeat(36000)}`);
    expect(out.stopReason).toBe("completed");
    const last = h.provider.requests.at(-1)!;
    const page = toolMessages(last.body).find((m) => m.id === "r1")!.content;
    expect(page).toMatch(/reads the next page\]$/);
    // A quarter of the window would be `window` chars; the room left is far less.
    expect(page.length).toBeLessThan(window * 0.75);
    expect(t.events.filter((e) => e.type === "compaction").map((e: any) => e.stage)).toEqual(["shed"]);
    expect(last.rawBody.length / 4).toBeLessThan(window);
  });
});
