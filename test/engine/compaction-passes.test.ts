// A history several windows large (a long session resumed into a small window): one summary
// request cannot carry it, so one compaction summarizes it in pieces, oldest first, each request
// under the limit, and applies one summary of the whole range; the turn goes on (R-COMP-2: "one
// long headless turn can always go on"; R-COMP-4: still one compaction, judged before and after).
import { describe, expect, it } from "vitest";
import { openaiText } from "../support/openai-script.js";
import { useHarness } from "./harness.js";

const h = useHarness();

const windowOf = (contextWindow: number) => (c: any) => {
  c.autoCompactThreshold = 0.5;
  c.models["local/mock-1"] = { contextWindow };
};

const isSummaryRequest = (body: any) =>
  /^Summarize the conversation above/.test(body.messages.at(-1)?.content ?? "");

describe("compaction of a history larger than one summary request", () => {
  it("summarizes in pieces within one compaction, each request under the limit, and the turn completes", async () => {
    // 16 turns of ~1,900-character answers (under the shed's text cut): ~7,800 tokens of history,
    // written with a window large enough that nothing compacts.
    const big = await h.start({ config: windowOf(1_000_000) });
    for (let i = 1; i <= 16; i++) {
      h.provider.enqueue(openaiText(`answer ${i} ${"w".repeat(1900)}`));
      expect((await big.prompt(`turn ${i}`)).stopReason).toBe("completed");
    }
    await big.session.close();

    // Resumed into an 8,000-token window whose 50% limit (4,000) the history is twice.
    let summaries = 0;
    h.provider.setResponder((req) =>
      isSummaryRequest(req.body)
        ? openaiText(`SUMMARY ${++summaries}: turns so far.`)
        : openaiText("carried on"),
    );
    const first = h.provider.requests.length;
    const resumed = await h.start({ config: windowOf(8000), resume: { id: big.session.id } });
    const out = await resumed.prompt("turn 17");
    expect(out.stopReason).toBe("completed");
    expect(out.finalText).toBe("carried on");

    const sent = h.provider.requests.slice(first).map((r) => r.body);
    const summaryRequests = sent.filter(isSummaryRequest);
    expect(summaryRequests.length).toBeGreaterThan(1);
    // Every summary request fits the window, wire framing and all (chars / 4 of the raw body).
    for (const r of h.provider.requests.slice(first).filter((r) => isSummaryRequest(r.body)))
      expect(r.rawBody.length / 4).toBeLessThan(8000);
    // Pieces are independent and oldest first: each carries its part's heading, none an earlier summary.
    summaryRequests.forEach((body, i) => {
      const text = JSON.stringify(body.messages);
      // A part of one turn says `turn N`, a longer one `turns N–M`.
      expect(text).toMatch(new RegExp(`\\[Part ${i + 1} of ${summaryRequests.length}: turns? \\d`));
      expect(text).not.toContain("SUMMARY");
    });
    // The turn's request: one summary of the whole range holding every piece's, then the newest
    // turn verbatim, then the new prompt.
    const last = sent.at(-1)!;
    const users = last.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
    expect(users[0]).toMatch(/^\[Summary of turns 1–15, written by compaction/);
    for (let i = 1; i <= summaries; i++) expect(users[0]).toContain(`SUMMARY ${i}: turns so far.`);
    expect(users.filter((u: string) => u.includes("SUMMARY"))).toHaveLength(1);
    expect(users.slice(1)).toEqual(["turn 16", "turn 17"]);
    const stages = resumed.events.filter((e) => e.type === "compaction").map((e: any) => e.stage);
    expect(stages).toEqual(["summarize"]);
  });
});
