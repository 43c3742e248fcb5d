// Per-turn execution budget (R-BUD). Counts what the turn used and answers whether the next
// step fits; a front end may grant more through the `onLimit` hook (R-BUD-3).
import type { ExecutionBudget } from "../../config/types.js";
import type { LimitName, OnLimit } from "../door/requests.js";

export type { LimitAnswer, LimitName, OnLimit } from "../door/requests.js";

export class TurnBudget {
  modelCallLimit: number | null;
  toolCallLimit: number | null;
  /** R-PROV-17: USD the turn may cost before the next request (`maximumCostUsd`). */
  costLimit: number | null;
  /** Rounds started (the maximumModelCalls budget counts rounds started, R-TURN-5). */
  roundsStarted = 0;
  toolCallsRun = 0;
  /** `yyy`: every limit answered yes for the rest of the turn (its `/retry` included, R-BUD-3). */
  autoContinue: boolean;

  constructor(
    private readonly budget: ExecutionBudget,
    private readonly onLimit?: OnLimit,
    autoContinue = false,
  ) {
    this.autoContinue = autoContinue;
    this.modelCallLimit = budget.maximumModelCalls;
    this.toolCallLimit = budget.maximumToolCalls;
    this.costLimit = budget.maximumCostUsd ?? null;
  }

  get durationMs(): number | null {
    return this.budget.maximumDurationSeconds === null ? null : this.budget.maximumDurationSeconds * 1000;
  }

  /** True when another round may start; asks the front end first when the limit is reached. */
  async allowRound(publish: (used: number, allowed: number) => void): Promise<boolean> {
    if (this.modelCallLimit === null || this.roundsStarted < this.modelCallLimit) return true;
    publish(this.roundsStarted, this.modelCallLimit);
    if (await this.ask("model_calls", this.roundsStarted, this.modelCallLimit)) {
      this.modelCallLimit += this.budget.maximumModelCalls ?? 0;
      return true;
    }
    return false;
  }

  /** True when a batch of `count` calls fits the remaining tool-call budget (asking first when not). */
  async allowBatch(count: number, publish: (used: number, allowed: number) => void): Promise<boolean> {
    if (this.toolCallLimit === null || this.toolCallsRun + count <= this.toolCallLimit) return true;
    publish(this.toolCallsRun, this.toolCallLimit);
    if (await this.ask("tool_calls", this.toolCallsRun, this.toolCallLimit)) {
      // One more allowance, and always at least enough for the batch that did not fit.
      this.toolCallLimit = Math.max(
        this.toolCallLimit + (this.budget.maximumToolCalls ?? 0),
        this.toolCallsRun + count,
      );
      return true;
    }
    return false;
  }

  /** True when the turn's cost so far leaves room for another request (asking first when not). */
  async allowSpend(spentUsd: number, publish: (used: number, allowed: number) => void): Promise<boolean> {
    if (this.costLimit === null || spentUsd < this.costLimit) return true;
    publish(spentUsd, this.costLimit);
    if (await this.ask("cost", spentUsd, this.costLimit)) {
      this.costLimit = Math.max(this.costLimit, spentUsd) + (this.budget.maximumCostUsd ?? 0);
      return true;
    }
    return false;
  }

  private async ask(limit: LimitName, used: number, allowed: number): Promise<boolean> {
    if (this.autoContinue) return true;
    if (!this.onLimit) return false;
    // The door's contract (requests.ts): a front end that throws has said no.
    const answer = await this.onLimit(limit, used, allowed).catch(() => "no" as const);
    if (answer === "all") this.autoContinue = true;
    return answer !== "no";
  }
}
