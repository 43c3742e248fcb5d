// SPEC §7 at engine level: automatic shed and summarize, the provider-overflow re-run, the
// no-loop rule, the reading door, and that resume replays exactly what the model saw.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadRecord } from "../../src/record/load.js";
import { findSession, recordFile } from "../../src/record/store.js";
import { openaiError, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useHarness } from "./harness.js";

const h = useHarness();

/** A context window small enough that a few KB of tool output crosses the 50% threshold. */
function smallWindow(contextWindow: number) {
  return (c: any) => {
    c.autoCompactThreshold = 0.5;
    c.models["local/mock-1"] = { contextWindow };
  };
}

function recordLines(sessionId: string) {
  const found = findSession(h.dirs.home, sessionId)!;
  return loadRecord(recordFile(found.dir)).lines;
}

const bigFile = (name: string, chars: number) =>
  writeFileSync(join(h.dirs.workspace, name), `${"x".repeat(99)}\n`.repeat(chars / 100));

describe("compaction", () => {
  it("sheds old tool results before a round when over the threshold, keeping the newest rounds", async () => {
    // The system prompt and tools are ~1,350 tokens; the window's 50% is 4,000 tokens.
    bigFile("big.txt", 6000); // ~1,600 tokens of read_file output
    const t = await h.start({ config: smallWindow(8000) });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "big.txt" } }]),
      openaiToolCalls([{ id: "c2", name: "glob", args: { pattern: "*.txt" } }]),
      openaiToolCalls([{ id: "c3", name: "glob", args: { pattern: "*.md" } }]),
      openaiToolCalls([{ id: "c4", name: "bash", args: { command: "head -c 6000 big.txt" } }]),
      openaiText("done"),
    );
    const out = await t.prompt("look around");
    expect(out.stopReason).toBe("completed");
    const compactions = t.events.filter((e) => e.type === "compaction");
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]).toMatchObject({ stage: "shed" });
    expect(
      compactions[0].type === "compaction" && compactions[0].after_tokens < compactions[0].before_tokens,
    ).toBe(true);
    // The last request no longer carries the big read, but names how to get it back.
    const last = h.provider.requests.at(-1)!.body;
    const c1 = last.messages.find((m: any) => m.tool_call_id === "c1");
    expect(c1.content).toMatch(/^\[shed by compaction: read_file result from turn 1 round 1/);
    expect(c1.content).toContain('recall {"turn": 1, "round": 1}');
    // Every call still has its result (no split pairs).
    const calls = last.messages.flatMap((m: any) => (m.tool_calls ?? []).map((c: any) => c.id));
    const results = last.messages.filter((m: any) => m.role === "tool").map((m: any) => m.tool_call_id);
    expect(results).toEqual(calls);
    // The archive keeps everything: the record still has the full read.
    const lines = recordLines(t.session.id);
    const full = lines.find((l) => l.type === "tool_result" && l.id === "c1");
    expect(JSON.stringify(full)).toContain("x".repeat(99));
    expect(lines.some((l) => l.type === "compaction" && l.stage === "shed")).toBe(true);
  });

  it("recall returns what compaction shed, and refuses the unclosed round", async () => {
    bigFile("big.txt", 6000);
    const t = await h.start({ config: smallWindow(8000) });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "big.txt" } }]),
      openaiToolCalls([{ id: "c2", name: "glob", args: { pattern: "*" } }]),
      openaiToolCalls([{ id: "c3", name: "glob", args: { pattern: "*" } }]),
      openaiToolCalls([{ id: "c4", name: "bash", args: { command: "head -c 6000 big.txt" } }]),
      openaiToolCalls([
        { id: "r1", name: "recall", args: { turn: 1, round: 1 } },
        { id: "r2", name: "recall", args: { turn: 1, round: 5 } },
      ]),
      openaiText("ok"),
    );
    await t.prompt("go");
    const last = h.provider.requests.at(-1)!.body;
    const r1 = last.messages.find((m: any) => m.tool_call_id === "r1").content;
    const r2 = last.messages.find((m: any) => m.tool_call_id === "r2").content;
    expect(r1).toContain("tool result c1 read_file [ok]");
    expect(r1).toContain("x".repeat(99));
    expect(r2).toMatch(/still being written.*readable rounds of this turn: 1, 2, 3, 4/);
  });

  it("summarizes older turns when shedding is not enough, with the tools defined but not callable", async () => {
    // The provider reports a prompt over the threshold: after that turn completes, compaction runs
    // (R-COMP-1); shedding finds nothing (the answer is under the text cut), so turn 1 is
    // summarized and turn 2 stays verbatim.
    const t = await h.start({ config: smallWindow(100000) });
    h.provider.enqueue(
      openaiText(`first answer ${"f".repeat(1500)}`),
      openaiText("second answer", { prompt_tokens: 60000, completion_tokens: 5 }),
    );
    await t.prompt("turn one");
    h.provider.enqueue(openaiText("SUMMARY: the user asked twice."));
    const second = await t.prompt("turn two");
    expect(second.stopReason).toBe("completed");
    const summaryReq = h.provider.requests.at(-1)!.body;
    // R-COMP-2: the definitions stay for a history holding tool calls; the model may call none.
    expect(summaryReq.tools.length).toBeGreaterThan(0);
    expect(summaryReq.tool_choice).toBe("none");
    expect(summaryReq.messages.at(-1).content).toMatch(/^Summarize the conversation above/);
    expect(summaryReq.messages.map((m: any) => m.content)).toContain("turn one");
    // The summary request is a model call of the turn that ran it, and its usage counts there.
    const end = t.events.filter((e) => e.type === "turn_end").at(-1)!;
    expect(end).toMatchObject({ model_calls: 2, usage: { prompt: 60010 } });
    expect(t.events.filter((e) => e.type === "compaction").map((e: any) => e.stage)).toEqual(["summarize"]);

    h.provider.enqueue(openaiText("third answer"));
    await t.prompt("turn three");
    const finalReq = h.provider.requests.at(-1)!.body;
    const userTexts = finalReq.messages.filter((m: any) => m.role === "user").map((m: any) => m.content);
    expect(userTexts[0]).toMatch(/^\[Summary of turn 1, written by compaction/);
    expect(userTexts[0]).toContain("SUMMARY: the user asked twice.");
    expect(userTexts.slice(1)).toEqual(["turn two", "turn three"]);
    expect(finalReq.messages[0]).toEqual(h.provider.requests[0].body.messages[0]);

    // Resume replays the compacted context exactly.
    await t.session.close();
    const resumed = await h.start({ config: smallWindow(100000), resume: { id: t.session.id } });
    h.provider.enqueue(openaiText("after resume"));
    await resumed.prompt("four");
    const resumedReq = h.provider.requests.at(-1)!.body;
    expect(resumedReq.messages.slice(0, finalReq.messages.length + 1)).toEqual([
      ...finalReq.messages,
      { role: "assistant", content: "third answer" },
    ]);
  });

  it("a provider context overflow triggers one compaction and one re-run; a second stops the turn", async () => {
    const overflow = () =>
      openaiError(400, {
        error: {
          message: "This model's maximum context length is 8192 tokens.",
          type: "invalid_request_error",
          code: "context_length_exceeded",
        },
      });
    const t = await h.start({ config: smallWindow(100000) });
    h.provider.enqueue(openaiText(`a ${"z".repeat(3000)}`), openaiText("b"));
    await t.prompt("one");
    await t.prompt("two");
    h.provider.enqueue(overflow(), openaiText("summary"), openaiText("recovered"));
    const ok = await t.prompt("three");
    expect(ok.stopReason).toBe("completed");
    expect(ok.finalText).toBe("recovered");

    h.provider.enqueue(overflow(), openaiText("summary 2"), overflow());
    const bad = await t.prompt("four");
    expect(bad.stopReason).toBe("context_overflow");
    expect(h.provider.pending).toBe(0);
  });

  it("stops as context_overflow when compaction cannot bring the context under budget (no loop)", async () => {
    const t = await h.start({ config: smallWindow(1000) });
    h.provider.enqueue(openaiText("never sent"));
    const out = await t.prompt(`a single huge prompt ${"q".repeat(4000)}`);
    expect(out.stopReason).toBe("context_overflow");
    expect(h.provider.requests).toHaveLength(0);
    const lines = readFileSync(recordFile(findSession(h.dirs.home, t.session.id)!.dir), "utf8");
    expect(lines).toContain('"stopReason":"context_overflow"');
  });

  it("/compact (compact before the turn) runs both stages whatever the size", async () => {
    const t = await h.start();
    // Longer than the summary that replaces it (a summary that is not smaller is not applied).
    h.provider.enqueue(openaiText(`one ${"o".repeat(1500)}`), openaiText("two"));
    await t.prompt("first");
    await t.prompt("second");
    h.provider.enqueue(openaiText("the summary"), openaiText("third"));
    const out = await t.session.send({
      type: "prompt",
      content: [{ type: "text", text: "third" }],
      compact: true,
    });
    expect(out.stopReason).toBe("completed");
    const final = h.provider.requests.at(-1)!.body;
    expect(final.messages[1].content).toMatch(/^\[Summary of turn 1/);
  });
});
