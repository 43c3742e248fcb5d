// At engine level: the onLimit hook of R-BUD-3 (yes grants one more allowance and the
// stopped step goes ahead, yyy holds for the rest of the turn and its /retry, no stops).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { LimitAnswer, LimitName } from "../../src/engine/turn/budget.js";
import { openaiError, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useHarness } from "./harness.js";

const h = useHarness();

/** A model that keeps asking for a harmless tool. */
const readCall = (id: string) => openaiToolCalls([{ id, name: "glob", args: { pattern: "*" } }]);

function scripted(answers: LimitAnswer[]) {
  const asked: [LimitName, number, number][] = [];
  return {
    asked,
    onLimit: async (limit: LimitName, used: number, allowed: number) => {
      asked.push([limit, used, allowed]);
      return answers.shift() ?? "no";
    },
  };
}

describe("onLimit hook (R-BUD-3)", () => {
  it("yes grants one more allowance of model calls, then no stops", async () => {
    const hook = scripted(["yes", "no"]);
    const t = await h.start({
      config: (c) => {
        c.executionBudget.maximumModelCalls = 1;
      },
      hooks: { onLimit: hook.onLimit },
    });
    h.provider.enqueue(readCall("c1"), readCall("c2"), readCall("c3"));
    const out = await t.prompt("go");
    expect(out.stopReason).toBe("model_call_limit_reached");
    expect(h.provider.requests).toHaveLength(2);
    expect(hook.asked).toEqual([
      ["model_calls", 1, 1],
      ["model_calls", 2, 2],
    ]);
    const limits = t.events.filter((e) => e.type === "limit_reached");
    expect(limits).toEqual([
      { type: "limit_reached", limit: "model_calls", used: 1, allowed: 1 },
      { type: "limit_reached", limit: "model_calls", used: 2, allowed: 2 },
    ]);
  });

  it("yes lets the tool batch that did not fit go ahead", async () => {
    const hook = scripted(["yes"]);
    const t = await h.start({
      config: (c) => {
        c.executionBudget.maximumToolCalls = 1;
      },
      hooks: { onLimit: hook.onLimit },
    });
    h.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "bash", args: { command: "touch one" } },
        { id: "c2", name: "bash", args: { command: "touch two" } },
      ]),
      openaiText("done"),
    );
    const out = await t.prompt("go");
    expect(out.stopReason).toBe("completed");
    expect(hook.asked).toEqual([["tool_calls", 0, 1]]);
    expect(existsSync(join(h.dirs.workspace, "one"))).toBe(true);
    expect(existsSync(join(h.dirs.workspace, "two"))).toBe(true);
  });

  it("yyy answers yes for the rest of the turn and its /retry, and is cleared for the next turn", async () => {
    const hook = scripted(["all"]);
    const t = await h.start({
      config: (c) => {
        c.executionBudget.maximumModelCalls = 1;
        c.retry.maxRetries = 0;
      },
      hooks: { onLimit: hook.onLimit },
    });
    // Round 3 fails, so the turn stops as failed; the retry must not ask again.
    h.provider.enqueue(readCall("c1"), readCall("c2"), openaiError(400, { error: { message: "bad" } }));
    const first = await t.prompt("go");
    expect(first.stopReason).toBe("failed");
    expect(hook.asked).toHaveLength(1);
    h.provider.enqueue(readCall("c3"), openaiText("done"));
    const retried = await t.session.send({ type: "retry" });
    expect(retried).toMatchObject({ turn: 1, stopReason: "completed" });
    expect(hook.asked).toHaveLength(1);
    // A new turn asks again.
    h.provider.enqueue(readCall("c4"), readCall("c5"));
    const next = await t.prompt("again");
    expect(next.stopReason).toBe("model_call_limit_reached");
    expect(hook.asked).toEqual([
      ["model_calls", 1, 1],
      ["model_calls", 1, 1],
    ]);
  });

  it("without a hook (tern run) a limit stops at once", async () => {
    const t = await h.start({
      config: (c) => {
        c.executionBudget.maximumModelCalls = 1;
      },
    });
    h.provider.enqueue(readCall("c1"));
    expect((await t.prompt("go")).stopReason).toBe("model_call_limit_reached");
  });
});
