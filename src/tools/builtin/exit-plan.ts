// exit_plan: the model ends planning (R-PLAN-1) with its plan. What follows is the session's
// business (engine/plan-review.ts): a person approves or sends it back, `tern run` prints it.
import * as z from "zod/mini";
import { lazySchema } from "../lazy-schema.js";
import { fail } from "../results.js";
import type { Tool } from "../types.js";

const schema = lazySchema(() =>
  z.object({
    plan: z.string().check(z.minLength(1), z.describe("Markdown list of steps")),
  }),
);
type Args = z.infer<ReturnType<typeof schema>>;

export const exitPlanTool: Tool<Args> = {
  name: "exit_plan",
  description: "Plan mode: end planning, handing the user your plan to approve.",
  get schema() {
    return schema();
  },
  // It changes nothing itself and runs without asking in every mode.
  kind: "read",
  paths: () => [],
  async run(args, ctx) {
    if (!ctx.exitPlan) return fail("exit_plan: this session cannot take a plan");
    return ctx.exitPlan(args.plan);
  },
};
