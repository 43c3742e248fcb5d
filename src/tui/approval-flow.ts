// The engine's approval hook as the UI answers it (R-UI-8): the batch goes into the store as
// a prompt, each call is answered on its own (approval-keys.ts), and the engine gets its map
// of decisions once every call has an answer.
import type { SessionHooks } from "../engine/door/requests.js";
import { stripControlSequences } from "../workspace/terminal-text.js";
import { type ApprovalAnswer, done } from "./approval.js";
import type { Store } from "./store.js";

type PendingCalls = Parameters<SessionHooks["approve"]>[0];
type Decisions = Awaited<ReturnType<SessionHooks["approve"]>>;

export class ApprovalFlow {
  private resolve: ((answers: (ApprovalAnswer | undefined)[]) => void) | undefined;

  constructor(private readonly store: Store) {}

  ask(calls: PendingCalls): Promise<Decisions> {
    return new Promise((resolve) => {
      this.resolve = (answers) => resolve(new Map(calls.map((call, i) => [call.id, answers[i] ?? "denied"])));
      this.store.dispatch({
        type: "approval",
        now: performance.now(),
        calls: calls.map((c) => ({
          id: c.id,
          name: c.name,
          // §10: what the model or a tool wrote never drives the terminal.
          arguments: stripControlSequences(c.call.arguments),
          paths: c.paths,
          always: c.always === undefined ? undefined : stripControlSequences(c.always),
          reason: c.reason === undefined ? undefined : stripControlSequences(c.reason),
          presentation: c.presentation,
        })),
      });
    });
  }

  /** Answers the prompt's current call (or all remaining); resolves the batch once all are answered. */
  answer(answer: "y" | "n" | "a", all = false): void {
    if (!this.resolve || !this.store.get().approval) return;
    const value = answer === "a" ? "always" : answer === "y" ? "approved" : "denied";
    this.store.dispatch({ type: "approval_answer", answer: value, all });
    const approval = this.store.get().approval;
    if (!approval || !done(approval)) return;
    const resolve = this.resolve;
    this.resolve = undefined;
    this.store.dispatch({ type: "approval", calls: null, now: performance.now() });
    resolve(approval.answers);
  }
}
