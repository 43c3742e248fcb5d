// The engine's requests to the person (door/requests.ts) as the UI answers them: each goes to
// the flow that shows it and reads the composer's answer.
import type { ApprovalFlow } from "./approval-flow.js";
import type { TuiHooks } from "./controller-types.js";
import type { ElicitFlow } from "./elicit-flow.js";
import type { LimitFlow } from "./limit-flow.js";
import type { PlanFlow } from "./plan-flow.js";
import type { Store } from "./store.js";

export interface RequestFlows {
  store: Store;
  approvals: ApprovalFlow;
  limits: LimitFlow;
  plans: PlanFlow;
  elicits: ElicitFlow;
}

export function uiRequests(f: RequestFlows): TuiHooks {
  return {
    approve: (calls) => f.approvals.ask(calls),
    onLimit: (limit, used, allowed) => f.limits.ask(limit, used, allowed),
    offersOutsideSandbox: true,
    reviewPlan: async (plan) => {
      const answer = await f.plans.ask(plan);
      // Implementing switches the mode inside the engine; the status line follows at once.
      if (answer.choice === "implement") f.store.dispatch({ type: "mode", mode: answer.mode });
      return answer;
    },
    elicit: (form, signal) => f.elicits.ask(form, signal),
  };
}
