// `/compact` now (R-COMP-1) as a session command outside a turn: both stages whatever the size,
// `compaction` and `usage` events, its summary billed at once on a ledger row of its own (kind
// `compaction`, R-REC-8), nothing to compact is no error, and session.cancel() aborts it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { coreOf } from "../../src/engine/core-of.js";
import { describe, expect, it } from "vitest";
import { openLedger } from "../../src/record/ledger.js";
import { loadRecord } from "../../src/record/load.js";
import { findSession, recordFile } from "../../src/record/store.js";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useHarness } from "./harness.js";

const h = useHarness();

function ledgerRows(session: string) {
  const ledger = openLedger(h.dirs.home);
  try {
    return ledger.rows().filter((r) => r.session === session);
  } finally {
    ledger.close();
  }
}

const lines = (id: string) => loadRecord(recordFile(findSession(h.dirs.home, id)!.dir)).lines;

describe("/compact now", () => {
  it("runs shed and summarize outside a turn and bills the summary on its own row at once", async () => {
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

    // The first summary attempt fails after reporting usage: both attempts are billed.
    const cut = openaiStream().text("half").usage({ prompt_tokens: 690, completion_tokens: 3 }).build();
    h.provider.enqueue(
      { ...cut, fault: { kind: "reset_after", frames: cut.frames!.length - 1 } },
      openaiText("THE SUMMARY", { prompt_tokens: 700, completion_tokens: 30 }),
    );
    const out = await t.session.send({ type: "compact" });
    expect(out.after).toBeLessThan(out.before);
    expect(h.provider.requests.length).toBe(sentBefore + 2);
    expect(h.provider.requests.at(-1)!.body.tool_choice).toBe("none");
    expect(t.events.map((e) => e.type)).toEqual(["compaction", "usage", "usage", "compaction"]);
    expect(t.events.map((e: any) => e.stage).filter(Boolean)).toEqual(["shed", "summarize"]);
    expect(t.events[2]).toMatchObject({ prompt: 700, completion: 30 });
    const compactions = lines(t.session.id).filter((l) => l.type === "compaction");
    expect(compactions).toHaveLength(2);
    expect(compactions[1]).toMatchObject({
      stage: "summarize",
      modelCalls: 2,
      usage: { prompt: 1390, completion: 33 },
      bill: { cost: null, model: "local/mock-1" },
    });

    // In the ledger now, before any further turn.
    const rowsNow = ledgerRows(t.session.id);
    expect(rowsNow.map((r) => [r.kind, r.turn, r.modelCalls, r.prompt, r.completion])).toEqual([
      ["turn", 1, 2, 20, 10],
      ["turn", 2, 1, 10, 5],
      ["compaction", 2, 2, 1390, 33],
    ]);

    // The next request carries the summary; the next turn bills only its own request.
    h.provider.enqueue(openaiText("three", { prompt_tokens: 100, completion_tokens: 5 }));
    await t.prompt("third");
    expect(h.provider.requests.at(-1)!.body.messages[1].content).toMatch(/^\[Summary of turn 1/);
    const end = t.events.filter((e) => e.type === "turn_end").at(-1)!;
    expect(end).toMatchObject({ turn: 3, model_calls: 1, usage: { prompt: 100, completion: 5 } });
    expect(ledgerRows(t.session.id).find((r) => r.turn === 3)).toMatchObject({ modelCalls: 1, prompt: 100 });
  });

  it("a summary that fails after the provider reported usage is still billed, on a line that replaces nothing", async () => {
    const t = await h.start({ config: (c) => (c.retry.maxRetries = 1) });
    h.provider.enqueue(openaiText("one"), openaiText("two"));
    await t.prompt("first");
    await t.prompt("second");
    const contextBefore = JSON.stringify(coreOf(t.session).fold.messages);
    const cut = openaiStream().text("half").usage({ prompt_tokens: 90, completion_tokens: 2 }).build();
    const failing = { ...cut, fault: { kind: "reset_after" as const, frames: cut.frames!.length - 1 } };
    h.provider.enqueue(failing, failing);
    await expect(t.session.send({ type: "compact" })).rejects.toMatchObject({ errorClass: "network" });
    const failed = lines(t.session.id).filter((l) => l.type === "compaction" && l.stage === "summarize");
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ usage: { prompt: 180, completion: 4 }, modelCalls: 2 });
    expect((failed[0] as any).failed).toBeTruthy();
    expect((failed[0] as any).summary).toBeUndefined();
    expect(JSON.stringify(coreOf(t.session).fold.messages)).toBe(contextBefore);
    expect(ledgerRows(t.session.id).map((r) => [r.kind, r.modelCalls, r.prompt])).toEqual([
      ["turn", 1, 10],
      ["turn", 1, 10],
      ["compaction", 2, 180],
    ]);
  });

  it("a summary not smaller than what it replaces is not applied: the original stays, a notice says so", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiText("one"), openaiText("two"));
    await t.prompt("first");
    await t.prompt("second");
    const contextBefore = JSON.stringify(coreOf(t.session).fold.messages);
    t.events.length = 0;
    // Turn 1 is a few dozen tokens; the model writes a summary longer than it.
    h.provider.enqueue(
      openaiText(`A long summary. ${"s".repeat(600)}`, { prompt_tokens: 80, completion_tokens: 150 }),
    );
    const out = await t.session.send({ type: "compact" });
    expect(out.after).toBe(out.before);
    expect(JSON.stringify(coreOf(t.session).fold.messages)).toBe(contextBefore);
    const notice = t.events.find((e) => e.type === "notice");
    expect(notice).toMatchObject({
      text: expect.stringMatching(
        /^compaction: the summary of turn 1 \(about \d+ tokens\) is not smaller than what it would replace \(about \d+ tokens\), so the original is kept$/,
      ),
    });
    expect(t.events.filter((e) => e.type === "compaction")).toHaveLength(0);
    // The request was paid for: a line that replaces nothing carries its bill.
    const summaries = lines(t.session.id).filter((l) => l.type === "compaction" && l.stage === "summarize");
    expect(summaries).toHaveLength(1);
    expect((summaries[0] as any).summary).toBeUndefined();
    expect((summaries[0] as any).failed).toMatch(/not smaller/);
    expect(ledgerRows(t.session.id).map((r) => [r.kind, r.prompt])).toEqual([
      ["turn", 10],
      ["turn", 10],
      ["compaction", 80],
    ]);
    h.provider.enqueue(openaiText("three"));
    await t.prompt("third");
    expect(h.provider.requests.at(-1)!.body.messages[1].content).toBe("first");
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
    // The cancelled request reported no usage and wrote no line: nothing to bill; the turn bills its own.
    expect(t.events.filter((e) => e.type === "turn_end").at(-1)).toMatchObject({ model_calls: 1 });
    expect(ledgerRows(t.session.id).map((r) => r.kind)).toEqual(["turn", "turn", "turn"]);
  });
});
