// The spending cap (R-PROV-17): before each request, the turn's cost so far (what its turn_end
// and the ledger bill) against `maximumCostUsd` / `--max-budget-usd`, a limit like the others
// (R-BUD-3). A model without a known price makes the cost unknown: the cap says once that it
// cannot be enforced, never passes silently and never stops a turn on a guess.
import { computeCost } from "../../vocab/cost.js";
import type { TurnPorts } from "./turn-ports.js";
import type { TurnState } from "./turn-state.js";

/** False when the cap is reached and not lifted (the turn stops as `cost_limit_reached`). */
export async function allowSpend(ports: TurnPorts, state: TurnState): Promise<boolean> {
  const { budget } = state;
  if (budget.costLimit === null) return true;
  const spent = state.cost !== undefined ? state.cost : computeCost(state.usage, ports.pricing?.());
  if (spent === null) {
    if (!state.costCapUnenforced) {
      state.costCapUnenforced = true;
      ports.publish({
        type: "notice",
        text: `the spending cap of $${budget.costLimit} cannot be enforced: this model's price is unknown (set models.<id>.pricing in config.json)`,
      });
    }
    return true;
  }
  return budget.allowSpend(spent, (used, allowed) =>
    ports.publish({ type: "limit_reached", limit: "cost", used: Math.round(used * 1e6) / 1e6, allowed }),
  );
}
