// Keys while an approval prompt is up (R-UI-8). Only a deliberate key answers: one key on its
// own, at least GUARD_MS after the prompt appeared. Anything typed ahead (a chunk of several
// characters, a key in the guard window, Enter) is dropped, so typing "say" as the prompt
// appears can never grant "always".
import type { Key } from "ink";
import { GUARD_MS, scrollBy } from "./approval.js";
import type { TuiController } from "./controller.js";

export function approvalKey(ctl: TuiController, input: string, key: Key, now = performance.now()): void {
  const approval = ctl.state.approval;
  if (!approval) return;
  if (key.escape) {
    // Esc interrupts like Ctrl+C (R-UI-12): the whole batch is denied and the turn stops.
    ctl.ctrlC();
    return;
  }
  const cols = process.stdout.columns || 80;
  const page = Math.max(1, (process.stdout.rows || 24) - 10);
  const scroll = key.upArrow ? -1 : key.downArrow ? 1 : key.pageUp ? -page : key.pageDown ? page : 0;
  if (scroll !== 0) {
    ctl.store.dispatch({ type: "approval_scroll", approval: scrollBy(approval, scroll, cols) });
    return;
  }
  if (now - approval.shownAt < GUARD_MS) return;
  if (input.length !== 1 || key.ctrl || key.meta) return;
  switch (input) {
    case "y":
    case "n":
    case "a":
      ctl.answerApproval(input);
      return;
    case "Y":
      ctl.answerApproval("y", true);
      return;
    case "N":
      ctl.answerApproval("n", true);
      return;
  }
}
