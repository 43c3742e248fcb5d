// Plan mode in the UI (R-PLAN-1, R-UI-24): the engine's `reviewPlan` hook as the composer answers
// it (the plan is printed above; `1` implements in auto-edit, `2` in ask, `3 <note>` keeps
// planning with the note; Ctrl+C or an exit keeps planning), and Shift+Tab's mode cycle.
import type { PermissionMode } from "../config/types.js";
import type { PlanReview } from "../engine/door/requests.js";
import type { Store } from "./store.js";

/** Shift+Tab: ask → auto-edit → plan → ask; yolo (only by /yolo) goes back to ask. */
export function nextMode(mode: PermissionMode): PermissionMode {
  if (mode === "ask") return "auto-edit";
  if (mode === "auto-edit") return "plan";
  return "ask";
}

export const PLAN_CHOICES =
  "Plan ready: [1] implement (auto-edit) / [2] implement (ask) / [3] keep planning (3 <note to the model>)";

/** What was typed at the plan prompt. */
export function planAnswer(text: string): PlanReview {
  const typed = text.trim();
  if (typed === "1") return { choice: "implement", mode: "auto-edit" };
  if (typed === "2") return { choice: "implement", mode: "ask" };
  return { choice: "keep_planning", note: typed.replace(/^3\b\s*/, "") };
}

export class PlanFlow {
  private resolve: ((answer: PlanReview) => void) | undefined;

  constructor(
    private readonly store: Store,
    private readonly print: (text: string) => void,
  ) {}

  ask(plan: string): Promise<PlanReview> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.print(plan);
      this.store.dispatch({ type: "plan_review", open: true });
    });
  }

  answerTyped(text: string): void {
    this.answer(planAnswer(text));
  }

  answer(answer: PlanReview): void {
    const resolve = this.resolve;
    if (!resolve) return;
    this.resolve = undefined;
    this.store.dispatch({ type: "plan_review", open: false });
    resolve(answer);
  }
}
