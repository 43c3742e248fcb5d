// The spending cap through `tern run --json` (R-PROV-17): `--max-budget-usd` and
// `executionBudget.maximumCostUsd` stop a turn before the next request once its cost reaches the
// cap (a limit like the others: limit_reached, stop reason, exit 3); an unknown price says the cap
// cannot be enforced and the turn goes on.
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();
/** openai/gpt-4.1 in the catalogue: $2 input, $8 output per million tokens. */
const ROUND_USAGE = { prompt_tokens: 100_000, completion_tokens: 10_000 }; // $0.28

describe("spending cap", () => {
  it("--max-budget-usd stops before the request that would pass it: cost_limit_reached, exit 3", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo hi" } }], ROUND_USAGE),
      openaiText("never sent"),
    );
    const run = await ternRun(e, ["--yes", "--model", "openai/gpt-4.1", "--max-budget-usd", "0.25"]);
    expect(run.code).toBe(3);
    expect(e.provider.requests).toHaveLength(1);
    expect(run.end).toMatchObject({ stop_reason: "cost_limit_reached", rounds: 1, tool_calls: 1 });
    expect(run.end.cost).toBeCloseTo(0.28);
    expect(run.events.find((ev) => ev.type === "limit_reached")).toEqual({
      type: "limit_reached",
      limit: "cost",
      used: 0.28,
      allowed: 0.25,
    });
  });

  it("executionBudget.maximumCostUsd lets a turn under the cap finish", async () => {
    writeUserConfig(e, { executionBudget: { maximumCostUsd: 1 } });
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo hi" } }], ROUND_USAGE),
      openaiText("done", ROUND_USAGE),
    );
    const run = await ternRun(e, ["--yes", "--model", "openai/gpt-4.1"]);
    expect(run.code).toBe(0);
    expect(run.end).toMatchObject({ stop_reason: "completed", rounds: 2 });
  });

  it("says the cap cannot be enforced when the price is unknown, and goes on", async () => {
    e.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo hi" } }], ROUND_USAGE),
      openaiText("done", ROUND_USAGE),
    );
    const run = await ternRun(e, ["--yes", "--max-budget-usd", "0.01"]);
    expect(run.code).toBe(0);
    const notices = run.events.filter((ev) => ev.type === "notice" && /spending cap/.test(ev.text));
    expect(notices).toHaveLength(1);
    expect(notices[0].text).toMatch(/cannot be enforced: this model's price is unknown/);
  });

  it("refuses a cap that is not a positive amount in one line", async () => {
    const run = await ternRun(e, ["--max-budget-usd", "-3"]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n")).toHaveLength(1);
    expect(run.stderr).toContain("--max-budget-usd");
  });
});
