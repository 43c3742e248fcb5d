// Side questions in the line mode (`/btw`, R-SIDE-1..4): the thread of this process that goes
// with the next question, what they cost (shown apart, never in the ledger), and Ctrl+C.
import type { Session } from "../engine/session.js";
import type { SideExchange } from "../engine/door/side.js";
import { addCost } from "../vocab/cost.js";

/** Side questions of this process (R-SIDE-1): the thread that goes with the next question. */
export class SideThread {
  private readonly history: SideExchange[] = [];
  private spent: number | null = 0;
  private controller: AbortController | undefined;

  constructor(private readonly session: Session) {}

  cost(): number | null {
    return this.spent;
  }

  /** Ctrl+C while a side question runs cancels it. Returns whether one was running. */
  cancel(): boolean {
    this.controller?.abort();
    return this.controller !== undefined;
  }

  async ask(question: string): Promise<string> {
    const controller = new AbortController();
    this.controller = controller;
    try {
      const result = await this.session.askSide(question, {
        history: this.history,
        signal: controller.signal,
        onEvent: () => {},
      });
      this.spent = addCost(this.spent, result.cost);
      if (!result.ok) return `side question failed: ${result.error}`;
      this.history.push({ question, answer: result.text });
      return `[side] ${result.text}`;
    } finally {
      this.controller = undefined;
    }
  }
}
