// The spending cap as a limit like the others (R-PROV-17, R-BUD-3): at the cap the front end is
// asked; yes grants one more allowance, yyy every one for the rest of the turn, no stops.
import { describe, expect, it } from "vitest";
import { defaultExecutionBudget } from "../../src/config/defaults.js";
import { type LimitAnswer, TurnBudget } from "../../src/engine/turn/budget.js";

const budget = (cap: number | null | undefined) => ({ ...defaultExecutionBudget(), maximumCostUsd: cap });

function asker(answers: LimitAnswer[]) {
  const asked: [string, number, number][] = [];
  return {
    asked,
    onLimit: async (limit: string, used: number, allowed: number) => {
      asked.push([limit, used, allowed]);
      return answers.shift() ?? "no";
    },
  };
}

describe("TurnBudget.allowSpend", () => {
  it("lets a turn under the cap go on without asking, and has no cap when none is set", async () => {
    const { asked, onLimit } = asker([]);
    expect(await new TurnBudget(budget(1), onLimit).allowSpend(0.99, () => {})).toBe(true);
    expect(await new TurnBudget(budget(undefined), onLimit).allowSpend(1e9, () => {})).toBe(true);
    expect(await new TurnBudget(budget(null), onLimit).allowSpend(1e9, () => {})).toBe(true);
    expect(asked).toEqual([]);
  });

  it("asks at the cap: yes grants one more allowance, then asks again", async () => {
    const { asked, onLimit } = asker(["yes", "no"]);
    const b = new TurnBudget(budget(0.5), onLimit);
    const published: number[][] = [];
    expect(await b.allowSpend(0.5, (u, a) => published.push([u, a]))).toBe(true);
    expect(b.costLimit).toBe(1);
    expect(await b.allowSpend(0.7, () => {})).toBe(true);
    expect(await b.allowSpend(1.2, () => {})).toBe(false);
    expect(asked).toEqual([
      ["cost", 0.5, 0.5],
      ["cost", 1.2, 1],
    ]);
    expect(published).toEqual([[0.5, 0.5]]);
  });

  it("yyy answers yes for the rest of the turn; no front end means no", async () => {
    const { onLimit } = asker(["all"]);
    const b = new TurnBudget(budget(0.1), onLimit);
    expect(await b.allowSpend(0.1, () => {})).toBe(true);
    expect(await b.allowSpend(5, () => {})).toBe(true);
    expect(await new TurnBudget(budget(0.1)).allowSpend(0.2, () => {})).toBe(false);
  });
});
