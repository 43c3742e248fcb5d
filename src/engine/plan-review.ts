// What `exit_plan` does (R-PLAN-1). In plan mode, a front end that can ask a person shows the
// plan (SessionHooks.reviewPlan): implementing switches the mode and makes the plan the todo
// list, and the turn goes on; keeping planning sends the person's note back. With nobody to ask
// (`tern run`, ACP) the plan is the turn's answer and the turn ends after this batch.
import type { ToolResult } from "../tools/types.js";
import type { PlanReview, SessionCore } from "./core.js";
import { APPROVED_PLAN, planTodos } from "./todo-state.js";

export { planTodos };

// Built here rather than with tools/results.js: that module belongs to the tools' lazy chunk.
const ok = (text: string): ToolResult => ({ outcome: "ok", content: [{ type: "text", text }] });

export async function exitPlan(core: SessionCore, plan: string, signal: AbortSignal): Promise<ToolResult> {
  if (core.policy.getMode() !== "plan")
    return ok("The session is not in plan mode: nothing to approve; carry on with the work.");
  const review = core.hooks.reviewPlan;
  if (!review) {
    core.deliveredPlan = plan;
    return ok("The plan was delivered to the user as this turn's answer; the turn ends here.");
  }
  const answer: PlanReview = await review(plan, signal).catch(() => ({ choice: "keep_planning" }));
  if (answer.choice === "keep_planning") {
    const note = answer.note?.trim();
    return ok(
      `The user wants to keep planning (still plan mode).${note ? ` Their note: ${note}` : ""} ` +
        "Revise the plan, then call exit_plan again.",
    );
  }
  core.policy.setMode(answer.mode);
  const todos = planTodos(plan);
  core.todos.set(todos);
  core.publish({ type: "notice", text: `plan approved: permission mode ${answer.mode}` });
  return ok(
    `${APPROVED_PLAN} The session is now in ${answer.mode} mode: implement the plan. ` +
      `It is your todo list (${todos.length} items); keep it current with todo_write.`,
  );
}
