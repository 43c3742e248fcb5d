// The line mode's answer to `exit_plan` (R-PLAN-1, SessionHooks.reviewPlan): the plan, then
// the three choices; keeping planning asks for a note to the model.
import { stripControlSequences } from "../workspace/terminal-text.js";
import type { PlanReview } from "../engine/door/requests.js";

export function linePlanReview(ask: (question: string) => Promise<string>) {
  return async (plan: string): Promise<PlanReview> => {
    process.stdout.write(`\nThe plan:\n${stripControlSequences(plan).trimEnd()}\n\n`);
    const answer = (await ask("[1] implement (auto-edit) / [2] implement (ask) / [3] keep planning: "))
      .trim()
      .toLowerCase();
    if (answer === "1" || answer.startsWith("implement (auto"))
      return { choice: "implement", mode: "auto-edit" };
    if (answer === "2" || answer.startsWith("implement (ask")) return { choice: "implement", mode: "ask" };
    const note = await ask("Note to the model (what to change; empty for none): ");
    return { choice: "keep_planning", note: note.trim() };
  };
}
