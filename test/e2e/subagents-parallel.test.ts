// Sub-agents of one batch (R-AGENT-1) headless: they run side by side (their requests overlap),
// `agents.maxParallel` bounds how many at once, and a cancel of the parent ends every child.
import { afterEach, describe, expect, it } from "vitest";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { killLeftovers, recordHas, runArgs, sessionDirs, startTern } from "./process-support.js";
import { scriptBySession, sessionRecords, splitSessions } from "./subagents-support.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();
afterEach(killLeftovers);

const task = (id: string, prompt: string) => ({ id, name: "task", args: { description: "part", prompt } });
/** An answer streamed slowly: 8 frames 150 ms apart, so it takes over a second to arrive. */
const slowText = (text: string) => ({
  ...openaiStream()
    .text(text)
    .text(" more")
    .text(" and")
    .text(" more")
    .finish("stop")
    .usage({ prompt_tokens: 10, completion_tokens: 5 })
    .build(),
  frameDelayMs: 150,
});

/** A parent whose one batch starts two children, each answering slowly. */
const twoSlowChildren = () =>
  scriptBySession(e, {
    "do it": [openaiToolCalls([task("t1", "part one"), task("t2", "part two")]), openaiText("both done")],
    "part one": [slowText("one")],
    "part two": [slowText("two")],
  });

describe("children of one batch", () => {
  it("run side by side: the second child's request arrives while the first is still streaming", async () => {
    const arrivals = twoSlowChildren();
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    const one = arrivals.find((a) => a.asker === "part one")!;
    const two = arrivals.find((a) => a.asker === "part two")!;
    // Each answer takes ~1.2 s to stream; one after the other, the second would arrive after it.
    expect(Math.abs(two.at - one.at)).toBeLessThan(600);
    const { children } = splitSessions(sessionRecords(e));
    expect(children).toHaveLength(2);
  });

  it("agents.maxParallel 1 runs them one after the other", async () => {
    writeUserConfig(e, { agents: { maxParallel: 1 } });
    const arrivals = twoSlowChildren();
    const run = await ternRun(e, []);
    expect(run.code).toBe(0);
    const [first, second] = arrivals.filter((a) => a.asker.startsWith("part"));
    expect(second.at - first.at).toBeGreaterThanOrEqual(1000);
  });

  it("a cancel of the parent (SIGINT) cancels every running child and ends their commands", async () => {
    scriptBySession(e, {
      "do it": [openaiToolCalls([task("t1", "sleep one"), task("t2", "sleep two")])],
      "sleep one": [openaiToolCalls([{ id: "s1", name: "bash", args: { command: "sleep 30" } }])],
      "sleep two": [openaiToolCalls([{ id: "s2", name: "bash", args: { command: "sleep 30" } }])],
    });
    const t = startTern(e, runArgs(e, ["--yes"]));
    const started = (id: string) => sessionDirs(e).some((dir) => recordHas(dir, "tool_start", id));
    await t.waitFor(() => started("s1") && started("s2"), "both children's commands to start");
    t.child.kill("SIGINT");
    expect((await t.exit).code).toBe(130);
    const { parent, children } = splitSessions(sessionRecords(e));
    expect(children).toHaveLength(2);
    for (const child of children) {
      expect(child.lines.find((l) => l.type === "turn_end")).toMatchObject({ stopReason: "cancelled" });
      expect(child.lines.find((l) => l.type === "tool_result")).toMatchObject({ outcome: "interrupted" });
    }
    expect(parent.lines.find((l) => l.type === "turn_end")).toMatchObject({ stopReason: "cancelled" });
  }, 30_000);
});
