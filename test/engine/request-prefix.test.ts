// SPEC §8: the prefix (system prompt and tool definitions) stays byte-identical between rounds;
// only compaction, a model switch or `/clear` may change it. `recall` (R-COMP-7) is offered from
// the first compaction on, in the round that compaction ran, and for good; a resumed compacted
// session offers it from its first request.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Config } from "../../src/config/types.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useHarness } from "./harness.js";

const h = useHarness();

/** A window whose 50% a few KB of tool output crosses (as compaction.test.ts). */
const smallWindow = (c: Config) => {
  c.autoCompactThreshold = 0.5;
  c.models["local/mock-1"] = { contextWindow: 8000 };
};

interface Sent {
  tools: string;
  system: string;
  names: string[];
  shed: boolean;
}

function sent(from = 0): Sent[] {
  return h.provider.requests.slice(from).map(({ body }) => ({
    tools: JSON.stringify(body.tools),
    system: JSON.stringify(body.messages[0]),
    names: body.tools.map((t: { function: { name: string } }) => t.function.name),
    shed: JSON.stringify(body.messages).includes("[shed by compaction"),
  }));
}

describe("the request prefix", () => {
  it("is byte-identical round after round; recall joins in the round the first compaction ran and stays", async () => {
    writeFileSync(join(h.dirs.workspace, "big.txt"), `${"x".repeat(99)}\n`.repeat(60));
    const t = await h.start({ config: smallWindow });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "glob", args: { pattern: "*.txt" } }]),
      openaiToolCalls([{ id: "c2", name: "bash", args: { command: "head -c 6000 big.txt" } }]),
      openaiToolCalls([{ id: "c3", name: "glob", args: { pattern: "*.md" } }]),
      openaiToolCalls([{ id: "c4", name: "bash", args: { command: "head -c 6000 big.txt" } }]),
      openaiToolCalls([{ id: "c5", name: "glob", args: { pattern: "*" } }]),
      openaiText("done"),
    );
    expect((await t.prompt("look around")).stopReason).toBe("completed");
    h.provider.enqueue(
      openaiToolCalls([{ id: "d1", name: "glob", args: { pattern: "*" } }]),
      openaiText("ok"),
    );
    expect((await t.prompt("once more")).stopReason).toBe("completed");

    const requests = sent();
    const firstShed = requests.findIndex((r) => r.shed);
    // The scene compacts, and not before its second round.
    expect(firstShed).toBeGreaterThan(1);
    const before = requests.slice(0, firstShed);
    const after = requests.slice(firstShed);
    expect(after.length).toBeGreaterThan(2);
    // Before: the first request's tools, without recall, byte for byte in every round.
    expect(before[0].names).not.toContain("recall");
    expect(before[0].names).toContain("read_file");
    for (const r of before) expect(r.tools).toBe(before[0].tools);
    // The compaction's own round already offers recall; every later round, next turn too, the same bytes.
    expect(after[0].names).toContain("recall");
    expect(after[0].names.filter((n) => n !== "recall")).toEqual(before[0].names);
    for (const r of after) expect(r.tools).toBe(after[0].tools);
    // The system prompt never changed.
    for (const r of requests) expect(r.system).toBe(requests[0].system);
  });

  it("offers recall from a resumed compacted session's first request, and not in an uncompacted one", async () => {
    writeFileSync(join(h.dirs.workspace, "big.txt"), `${"x".repeat(99)}\n`.repeat(60));
    const plain = await h.start({ config: smallWindow });
    h.provider.enqueue(openaiText("hello"));
    await plain.prompt("hi");
    await plain.session.close();
    const fresh = h.provider.requests.length;
    h.provider.enqueue(openaiText("again"));
    await (await h.start({ config: smallWindow, resume: { id: plain.session.id } })).prompt("hi again");
    expect(sent(fresh)[0].names).not.toContain("recall");

    const t = await h.start({ config: smallWindow });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "head -c 6000 big.txt" } }]),
      openaiToolCalls([{ id: "c2", name: "glob", args: { pattern: "*" } }]),
      openaiToolCalls([{ id: "c3", name: "bash", args: { command: "head -c 6000 big.txt" } }]),
      openaiToolCalls([{ id: "c4", name: "glob", args: { pattern: "*" } }]),
      openaiText("done"),
    );
    await t.prompt("look");
    const lastBefore = sent().at(-1)!;
    expect(lastBefore.shed).toBe(true);
    await t.session.close();
    const first = h.provider.requests.length;
    h.provider.enqueue(openaiText("resumed"));
    await (await h.start({ config: smallWindow, resume: { id: t.session.id } })).prompt("go on");
    const resumed = sent(first);
    expect(resumed[0].names).toContain("recall");
    expect(resumed[0].tools).toBe(lastBefore.tools);
  });
});
