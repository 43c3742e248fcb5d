// A side question's words (`/btw`, R-SIDE-1..4): what `Session.askSide` streams and resolves to,
// and the earlier exchanges a front end hands back with the next question.

/** One earlier side question and its answer. */
export interface SideExchange {
  question: string;
  answer: string;
}

/** Deltas of the answer as it streams; after a retried attempt the final `SideResult.text` is what counts. */
export type SideEvent = { type: "reasoning_delta" | "text_delta"; text: string };
export interface SideResult {
  ok: boolean;
  text: string;
  error?: string;
  /**
   * USD the question's requests cost (every attempt that reported usage); null = unknown price.
   * Never in the ledger (R-SIDE-4); a status line may show it apart.
   */
  cost: number | null;
}
