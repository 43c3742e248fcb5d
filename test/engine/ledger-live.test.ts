// R-REC-8 / R-PROV-6 in the engine: a round's failed attempts are recorded with its answer (so a
// crash cannot lose their bill), a /retry adds a run to the turn's row, and a resume brings the
// session's ledger rows up to date from the record.
import { describe, expect, it } from "vitest";
import { openLedger } from "../../src/record/ledger.js";
import { loadRecord } from "../../src/record/load.js";
import { findSession, recordFile } from "../../src/record/store.js";
import { type OpenAIUsageInput, openaiStream, openaiText } from "../support/openai-script.js";
import { useHarness } from "./harness.js";

const h = useHarness();

const lines = (id: string) => loadRecord(recordFile(findSession(h.dirs.home, id)!.dir)).lines;

function rows(session: string) {
  const ledger = openLedger(h.dirs.home);
  try {
    return ledger.rows().filter((r) => r.session === session);
  } finally {
    ledger.close();
  }
}

/** An attempt cut after its usage frame: it fails, but the provider reported (and billed) usage. */
function cutAfterUsage(usage: OpenAIUsageInput) {
  const built = openaiStream().text("lost").usage(usage).build();
  return { ...built, fault: { kind: "reset_after" as const, frames: built.frames!.length - 1 } };
}

describe("usage accounting", () => {
  it("records a round's failed attempts with its answer; the turn and its row count every attempt", async () => {
    const t = await h.start();
    h.provider.enqueue(
      cutAfterUsage({ prompt_tokens: 40, completion_tokens: 1 }),
      cutAfterUsage({ prompt_tokens: 41, completion_tokens: 2, cached_tokens: 30 }),
      openaiText("answer", { prompt_tokens: 50, completion_tokens: 5 }),
    );
    expect((await t.prompt("go")).stopReason).toBe("completed");
    const answer = lines(t.session.id).find((l) => l.type === "assistant_message")!;
    expect(answer).toMatchObject({
      attempts: 3,
      usage: { prompt: 50, completion: 5, cacheRead: 0 },
      failedUsage: { prompt: 81, completion: 3, cacheRead: 30, cacheWrite: 0 },
    });
    expect(t.events.find((e) => e.type === "turn_end")).toMatchObject({
      model_calls: 3,
      usage: { prompt: 131, completion: 8, cache_read: 30 },
    });
    expect(rows(t.session.id)).toMatchObject([
      { kind: "turn", modelCalls: 3, prompt: 131, billedInput: 101 },
    ]);
  });

  it("a /retry of a failed turn adds its run to the turn's row instead of replacing it", async () => {
    const t = await h.start({ config: (c) => (c.retry.maxRetries = 0) });
    h.provider.enqueue(cutAfterUsage({ prompt_tokens: 70, completion_tokens: 3 }));
    expect((await t.prompt("go")).stopReason).toBe("failed");
    expect(rows(t.session.id)).toMatchObject([{ modelCalls: 1, prompt: 70, stopReason: "failed" }]);
    h.provider.enqueue(openaiText("now it works", { prompt_tokens: 80, completion_tokens: 4 }));
    expect((await t.session.send({ type: "retry" })).stopReason).toBe("completed");
    expect(rows(t.session.id)).toMatchObject([
      { turn: 1, modelCalls: 2, rounds: 1, prompt: 150, completion: 7, stopReason: "completed" },
    ]);
  });

  it("a resume brings the session's rows up to date (a process killed before its ledger write)", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiText("one", { prompt_tokens: 12, completion_tokens: 3 }));
    await t.prompt("first");
    const id = t.session.id;
    const ledger = openLedger(h.dirs.home);
    ledger.putSession(id, []);
    ledger.close();
    await t.session.close();
    expect(rows(id)).toEqual([]);
    await h.start({ resume: { id } });
    expect(rows(id)).toMatchObject([{ turn: 1, prompt: 12 }]);
  });
});
