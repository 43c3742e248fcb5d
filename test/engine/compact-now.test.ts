// `/compact` now (R-COMP-1) as a session command outside a turn: both stages whatever the size,
// `compaction` and `usage` events, its model calls and usage billed to the NEXT turn (so the
// ledger matches the bill), nothing to compact is no error, and session.cancel() aborts it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openLedger } from "../../src/record/ledger.js";
import { loadRecord } from "../../src/record/load.js";
import { findSession, recordPath } from "../../src/record/store.js";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useHarness } from "./harness.js";

const h = useHarness();

const lines = (id: string) => loadRecord(recordPath(findSession(h.dirs.home, id)!.dir)).lines;

describe("/compact now", () => {
  it("runs shed and summarize outside a turn and bills the summary to the next turn", async () => {
    writeFileSync(join(h.dirs.workspace, "big.txt"), "b".repeat(4000));
    const t = await h.start();
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "big.txt" } }]),
      openaiText("read it"),
      openaiText("two"),
    );
    await t.prompt("one");
    await t.prompt("second");
    const sentBefore = h.provider.requests.length;
    t.events.length = 0;

    h.provider.enqueue(openaiText("THE SUMMARY", { prompt_tokens: 700, completion_tokens: 30 }));
    const out = await t.session.send({ type: "compact" });
    expect(out.after).toBeLessThan(out.before);
    expect(h.provider.requests.length).toBe(sentBefore + 1);
    expect(h.provider.requests.at(-1)!.body.tool_choice).toBe("none");
    expect(t.events.map((e) => e.type)).toEqual(["compaction", "usage", "compaction"]);
    expect(t.events.map((e: any) => e.stage).filter(Boolean)).toEqual(["shed", "summarize"]);
    expect(t.events[1]).toMatchObject({ prompt: 700, completion: 30 });
    expect(lines(t.session.id).filter((l) => l.type === "compaction")).toHaveLength(2);

    // The next request carries the summary; the next turn_end carries the summary's call and usage.
    h.provider.enqueue(openaiText("three", { prompt_tokens: 100, completion_tokens: 5 }));
    await t.prompt("third");
    expect(h.provider.requests.at(-1)!.body.messages[1].content).toMatch(/^\[Summary of turn 1/);
    const end = t.events.filter((e) => e.type === "turn_end").at(-1)!;
    expect(end).toMatchObject({ turn: 3, model_calls: 2, usage: { prompt: 800, completion: 35 } });
    const ledger = openLedger(h.dirs.home);
    try {
      const row = ledger.rows().find((r) => r.session === t.session.id && r.turn === 3)!;
      expect(row).toMatchObject({ modelCalls: 2, prompt: 800, completion: 35 });
    } finally {
      ledger.close();
    }
    // Billed once: the turn after does not carry it again.
    h.provider.enqueue(openaiText("four"));
    await t.prompt("fourth");
    expect(t.events.filter((e) => e.type === "turn_end").at(-1)).toMatchObject({ model_calls: 1 });
  });

  it("nothing to compact is no error", async () => {
    const t = await h.start();
    const out = await t.session.send({ type: "compact" });
    expect(out.before).toBe(out.after);
    expect(out.before).toBeGreaterThan(0);
    expect(h.provider.requests).toHaveLength(0);
    expect(t.events.filter((e) => e.type === "compaction")).toHaveLength(0);
  });

  it("session.cancel() aborts it; the session goes on and the sent request is still billed", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiText("one"), openaiText("two"));
    await t.prompt("first");
    await t.prompt("second");
    // The summary request stalls until cancelled.
    h.provider.enqueue(openaiStream().text("partial summ").stallAfter(2).build());
    const compacting = t.session.send({ type: "compact" });
    while (h.provider.requests.length < 3) await new Promise((r) => setTimeout(r, 5));
    t.session.cancel();
    await expect(compacting).rejects.toMatchObject({ errorClass: "cancelled" });
    expect(lines(t.session.id).some((l) => l.type === "compaction" && l.stage === "summarize")).toBe(false);

    h.provider.enqueue(openaiText("three"));
    const next = await t.prompt("third");
    expect(next.stopReason).toBe("completed");
    expect(h.provider.requests.at(-1)!.body.messages[1].content).toBe("first");
    expect(t.events.filter((e) => e.type === "turn_end").at(-1)).toMatchObject({ model_calls: 2 });
  });
});
