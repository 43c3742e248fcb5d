// The engine's budget-limit hook as the UI answers it (R-BUD-3): the prompt goes into the
// store, the composer's next Enter answers it (`y`, `n`, or `yyy` for every limit of the turn),
// and Ctrl+C or an exit answers no.
import type { Store } from "./store.js";

export type LimitAnswer = "yes" | "no" | "all";

export class LimitFlow {
  private resolve: ((answer: LimitAnswer) => void) | undefined;

  constructor(private readonly store: Store) {}

  ask(limit: string, used: number, allowed: number): Promise<LimitAnswer> {
    return new Promise((resolve) => {
      this.resolve = resolve;
      this.store.dispatch({ type: "limit", prompt: { limit, used, allowed } });
    });
  }

  /** What was typed at the prompt: `yyy` allows the rest of the turn, a `y…` once, anything else no. */
  answerTyped(text: string): void {
    const typed = text.trim().toLowerCase();
    this.answer(typed === "yyy" ? "all" : typed.startsWith("y") ? "yes" : "no");
  }

  answer(answer: LimitAnswer): void {
    const resolve = this.resolve;
    if (!resolve) return;
    this.resolve = undefined;
    this.store.dispatch({ type: "limit", prompt: null });
    resolve(answer);
  }
}
