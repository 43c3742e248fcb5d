// Side questions (R-SIDE-1..4) at engine level against the fake provider: the request (work
// model, system, no tools, the ARCHIVE, side history, `still running` results), that it runs
// beside a running turn and leaves record, bus and ledger alone, R-SIDE-2 fitting of a copy,
// R-SIDE-3 tool-call answers, provider errors and cancellation.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { estimateTokens } from "../../src/engine/compaction/compaction.js";
import { coreOf } from "../../src/engine/core-of.js";
import type { Session } from "../../src/engine/session.js";
import type { SideEvent } from "../../src/engine/door/side.js";
import { TOOL_CALL_ONLY } from "../../src/engine/side/ask.js";
import { STILL_RUNNING } from "../../src/engine/side/plan.js";
import { openLedger } from "../../src/record/ledger.js";
import { findSession, recordFile } from "../../src/record/store.js";
import { openaiError, openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useHarness } from "./harness.js";

const h = useHarness();

function ledgerRows() {
  const ledger = openLedger(h.dirs.home);
  try {
    return ledger.rows();
  } finally {
    ledger.close();
  }
}
const recordBytes = (s: Session) => readFileSync(recordFile(findSession(h.dirs.home, s.id)!.dir));
const ask = (s: Session, q: string, history: { question: string; answer: string }[] = []) => {
  const events: SideEvent[] = [];
  const result = s.askSide(q, {
    history,
    signal: new AbortController().signal,
    onEvent: (e) => events.push(e),
  });
  return { result, events };
};
const contents = (body: any) => body.messages.map((m: any) => m.content);
/** A window that makes the side copy's limit `extra` tokens above the system prompt (threshold 0 = the window). */
async function windowAbove(extra: number) {
  const probe = await h.start();
  const system = estimateTokens(coreOf(probe.session).system, "", []);
  await probe.session.close();
  return (c: any) => {
    c.autoCompactThreshold = 0;
    c.models["local/mock-1"] = { contextWindow: system + extra };
  };
}

describe("side questions", () => {
  it("asks with the work model, system, no tools, the archive in full and the side history; commits nothing", async () => {
    const big = `${"b".repeat(99)}\n`.repeat(40);
    writeFileSync(join(h.dirs.workspace, "big.txt"), big);
    const t = await h.start();
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "big.txt" } }]),
      openaiText("read it"),
      openaiText("two"),
      openaiText("THE SUMMARY"),
    );
    await t.prompt("one");
    await t.prompt("second");
    await t.session.send({ type: "compact" }); // sheds c1 and summarizes turn 1 in the model context
    expect(JSON.stringify(coreOf(t.session).fold.messages)).toContain("Summary of turn 1");
    const before = recordBytes(t.session);
    const eventsBefore = t.events.length;
    const ledgerBefore = ledgerRows();

    h.provider.enqueue(openaiStream().reasoning("hmm").text("the ").text("answer").finish("stop").build());
    const { result, events } = ask(t.session, "what did you read?", [{ question: "q0", answer: "a0" }]);
    expect(await result).toEqual({ ok: true, text: "the answer", cost: 0 });
    expect(events).toEqual([
      { type: "reasoning_delta", text: "hmm" },
      { type: "text_delta", text: "the " },
      { type: "text_delta", text: "answer" },
    ]);

    const body = h.provider.requests.at(-1)!.body;
    expect(body.tools).toBeUndefined();
    expect(body.model).toBe(h.provider.requests[0].body.model);
    expect(body.messages[0]).toEqual({ role: "system", content: coreOf(t.session).system });
    const texts = contents(body);
    // The archive, not the compacted context: the shed result in full, no summary.
    const full = texts[3];
    expect(full.match(/b{99}/g)).toHaveLength(40);
    expect(texts.some((c: any) => typeof c === "string" && /Summary of|shed by compaction/.test(c))).toBe(
      false,
    );
    expect(texts.slice(1)).toEqual([
      "one",
      null,
      full,
      "read it",
      "second",
      "two",
      "q0",
      "a0",
      "what did you read?",
    ]);
    // R-SIDE-4: no record line, no event, nothing for the ledger.
    expect(recordBytes(t.session).equals(before)).toBe(true);
    expect(t.events.length).toBe(eventsBefore);
    expect(ledgerRows()).toEqual(ledgerBefore);
  });

  it("keeps only the newest 20 side exchanges and leaves out what /clear cleared", async () => {
    const t = await h.start();
    h.provider.enqueue(openaiText("old answer"), openaiText("new answer"));
    await t.prompt("before clear");
    await t.session.send({ type: "clear" });
    await t.prompt("after clear");
    const history = Array.from({ length: 25 }, (_, i) => ({ question: `q${i}`, answer: `a${i}` }));
    h.provider.enqueue(openaiText("side"));
    expect(await ask(t.session, "why?", history).result).toMatchObject({ ok: true });
    const texts = contents(h.provider.requests.at(-1)!.body).slice(1);
    expect(texts.slice(0, 4)).toEqual(["after clear", "new answer", "q5", "a5"]);
    expect(texts.at(-3)).toBe("q24");
    expect(texts.at(-1)).toBe("why?");
    expect(texts).toHaveLength(2 + 40 + 1);
  });

  it("runs beside a running turn; a running call gets a `still running` result in the copy only", async () => {
    const t = await h.start();
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "sleep 2; echo finished" } }]),
      openaiText("side answer"),
      openaiText("turn done"),
    );
    let turnDone = false;
    const turn = t.prompt("run it").then((out) => {
      turnDone = true;
      return out;
    });
    while (!coreOf(t.session).fold.openCalls.some((c) => c.started))
      await new Promise((r) => setTimeout(r, 10));
    const side = await ask(t.session, "what is running?").result;
    expect(side).toMatchObject({ ok: true, text: "side answer" });
    expect(turnDone).toBe(false);
    const body = h.provider.requests[1].body;
    expect(body.tools).toBeUndefined();
    expect(body.messages.slice(1)).toEqual([
      { role: "user", content: "run it" },
      expect.objectContaining({ role: "assistant", tool_calls: [expect.objectContaining({ id: "c1" })] }),
      { role: "tool", tool_call_id: "c1", content: STILL_RUNNING },
      { role: "user", content: "what is running?" },
    ]);

    expect((await turn).stopReason).toBe("completed");
    // The turn's own next request has the real result, and no trace of the side question.
    const next = h.provider.requests[2].body;
    expect(next.messages.find((m: any) => m.role === "tool").content).toBe("finished");
    expect(JSON.stringify(next)).not.toContain("what is running?");
    expect(t.events.filter((e) => e.type === "usage")).toHaveLength(2);
  });

  it("leaves out text still streaming in the current round", async () => {
    const t = await h.start();
    h.provider.enqueue(
      openaiStream().text("STREAMING ").text("more").finish("stop").delay(60).build(),
      openaiText("side"),
    );
    const turn = t.prompt("go");
    while (!t.events.some((e) => e.type === "text_delta")) await new Promise((r) => setTimeout(r, 5));
    expect(await ask(t.session, "q").result).toMatchObject({ ok: true, text: "side" });
    const sideBody = h.provider.requests[1].body;
    expect(JSON.stringify(sideBody)).not.toContain("STREAMING");
    expect(contents(sideBody).slice(1)).toEqual(["go", "q"]);
    expect((await turn).finalText).toBe("STREAMING more");
  });

  it("a tool call with no text fails; text with a tool call is kept; the call never runs", async () => {
    const t = await h.start();
    const touch = (id: string) => [{ id, name: "bash", args: { command: `touch ${id}` } }];
    h.provider.enqueue(openaiToolCalls(touch("x1")), openaiToolCalls(touch("x2"), undefined, "partly this"));
    expect(await ask(t.session, "q").result).toMatchObject({ ok: false, text: "", error: TOOL_CALL_ONLY });
    expect(await ask(t.session, "q").result).toMatchObject({ ok: true, text: "partly this" });
    expect(existsSync(join(h.dirs.workspace, "x1")) || existsSync(join(h.dirs.workspace, "x2"))).toBe(false);
  });

  it("a copy over the window sheds old tool results, in the copy only", async () => {
    const config = await windowAbove(1500);
    writeFileSync(join(h.dirs.workspace, "big.txt"), `${"b".repeat(99)}\n`.repeat(80)); // ~2,000 tokens
    const t = await h.start({ config });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "big.txt" } }]),
      openaiText("read it"),
      openaiText("side"),
    );
    await t.prompt("one");
    expect(await ask(t.session, "q").result).toMatchObject({ ok: true });
    const tool = h.provider.requests.at(-1)!.body.messages.find((m: any) => m.role === "tool");
    expect(tool.content).toMatch(/^\[read_file result left out of this side question to fit the window/);
    expect(JSON.stringify(coreOf(t.session).fold.messages)).toContain("b".repeat(99));
    expect(JSON.stringify(coreOf(t.session).fold.messages)).not.toContain("left out of this side question");
  });

  it("drops the oldest turns when shedding and cutting are not enough", async () => {
    const config = await windowAbove(1200); // 4 prompts of 1,900 chars (~1,900 tokens) do not fit
    const t = await h.start({ config });
    for (let i = 1; i <= 4; i++) {
      h.provider.enqueue(openaiText(`answer ${i}`));
      await t.prompt(`${i}${"p".repeat(1899)}`);
    }
    h.provider.enqueue(openaiText("side"));
    expect(await ask(t.session, "q").result).toMatchObject({ ok: true });
    const texts: string[] = contents(h.provider.requests.at(-1)!.body).slice(1);
    expect(texts.some((c) => c.includes(`1${"p".repeat(1899)}`))).toBe(false);
    expect(texts[0]).toMatch(/^\[earlier turns left out to fit the window\]/);
    expect(texts.at(-3)).toBe(`4${"p".repeat(1899)}`);
    expect(texts.at(-1)).toBe("q");
  });

  it("fails with a clear message when even the compacted copy does not fit", async () => {
    const config = await windowAbove(500);
    const t = await h.start({ config });
    h.provider.enqueue(openaiText("a"));
    await t.prompt("hi");
    const out = await ask(t.session, "q".repeat(4000)).result;
    expect(out.ok).toBe(false);
    expect(out.error).toMatch(/does not fit/);
    expect(h.provider.requests).toHaveLength(1);
  });

  it("reports a provider error after the retry policy, and cancellation", async () => {
    const t = await h.start({ config: (c) => (c.retry.maxRetries = 1) });
    h.provider.enqueue(
      openaiError(500, { error: { message: "boom", type: "server_error" } }),
      openaiError(500, { error: { message: "boom", type: "server_error" } }),
    );
    const failed = await ask(t.session, "q").result;
    expect(failed.ok).toBe(false);
    expect(failed.error).toMatch(/boom/);
    expect(h.provider.requests).toHaveLength(2);

    h.provider.enqueue(openaiStream().text("half an ans").stallAfter(2).build());
    const controller = new AbortController();
    const events: SideEvent[] = [];
    const pending = t.session.askSide("q", {
      history: [],
      signal: controller.signal,
      onEvent: (e) => {
        events.push(e);
        controller.abort();
      },
    });
    expect(await pending).toMatchObject({ ok: false, text: "", error: "cancelled" });
    expect(events).toEqual([{ type: "text_delta", text: "half an ans" }]);
    expect(t.events).toHaveLength(0);
  });
});
