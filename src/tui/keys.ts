// All key handling in one place: which keys mean what depends on what is on screen
// (approval prompt, side panel, composer).
import type { Key } from "ink";
import type { TuiController } from "./controller.js";

export function handleKey(ctl: TuiController, input: string, key: Key): void {
  // Keys typed ahead arrive in one chunk ("hello\r"): each line end is an Enter of its own.
  if (input.length > 1 && /[\r\n]/.test(input) && !key.ctrl && !key.meta) {
    for (const part of input.split(/(\r\n|\r|\n)/)) {
      if (/^[\r\n]+$/.test(part)) handleKey(ctl, "", { ...key, return: true });
      else if (part) handleKey(ctl, part, { ...key, return: false });
    }
    return;
  }
  const state = ctl.state;
  if (key.ctrl && input === "c") {
    ctl.ctrlC();
    return;
  }
  if (state.approval) {
    // R-UI-8: y / n / a(lways), one key.
    const answer = input.toLowerCase();
    if (answer === "y" || answer === "n" || answer === "a") ctl.answerApproval(answer);
    return;
  }
  if (state.side.open) {
    // R-SIDE-5: Esc, Enter or Space close; Left / Right step; x clears the thread.
    if (key.escape || key.return || input === " ") ctl.store.dispatch({ type: "side_close" });
    else if (key.leftArrow) ctl.store.dispatch({ type: "side_step", delta: -1 });
    else if (key.rightArrow) ctl.store.dispatch({ type: "side_step", delta: 1 });
    else if (input === "x" && !state.side.pending) ctl.store.dispatch({ type: "side_clear" });
    return;
  }
  if (key.return) {
    ctl.submit();
    return;
  }
  if (key.backspace || key.delete) {
    ctl.store.dispatch({ type: "compose", text: state.composer.slice(0, -1) });
    return;
  }
  if (key.ctrl && input === "u") {
    ctl.store.dispatch({ type: "compose", text: "" });
    return;
  }
  if (
    key.ctrl ||
    key.meta ||
    key.escape ||
    key.tab ||
    key.upArrow ||
    key.downArrow ||
    key.leftArrow ||
    key.rightArrow
  )
    return;
  if (input) ctl.store.dispatch({ type: "compose", text: state.composer + input });
}
