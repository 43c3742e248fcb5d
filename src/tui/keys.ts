// All key handling in one place: which keys mean what depends on what is on screen
// (approval prompt, side panel, composer).
import type { Key } from "ink";
import {
  backspace,
  continuation,
  deleteForward,
  type Edit,
  end,
  home,
  insert,
  left,
  right,
  verticalMove,
} from "./composer.js";
import { approvalKey } from "./approval-keys.js";
import type { TuiController } from "./controller.js";

/** useInput's callback: events that belong to a bracketed paste were taken by RawInput. */
export function onInput(ctl: TuiController, input: string, key: Key): void {
  const typed = ctl.input.leftover;
  ctl.input.leftover = "";
  if (typed) handleKey(ctl, ...controlKey(typed, NO_KEY));
  if (!ctl.input.consumed) handleKey(ctl, input, key);
}

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};

export function handleKey(ctl: TuiController, input: string, key: Key): void {
  // Keys typed ahead arrive in one chunk ("hello\r", "wrld\x01"): Ink then reports the whole
  // chunk as text, so each control key in it is replayed as a key of its own.
  if (input.length > 1 && !key.meta && /[\x00-\x1f\x7f]/.test(input)) {
    for (const part of input.split(/(\r\n|[\x00-\x1f\x7f])/))
      if (part) handleKey(ctl, ...controlKey(part, key));
    return;
  }
  const state = ctl.state;
  if (key.ctrl && input === "c") {
    ctl.ctrlC();
    return;
  }
  // R-UI-11: the tail under a tool call expands to its whole output.
  if (key.ctrl && input === "o") {
    ctl.expandLastTool();
    return;
  }
  if (state.approval) {
    approvalKey(ctl, input, key);
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
  // R-UI-12: Esc interrupts a running turn like Ctrl+C.
  if (key.escape && state.busy) {
    ctl.ctrlC();
    return;
  }
  composerKey(ctl, input, key);
}

/** One part of a split chunk as Ink would have reported it had it come alone. */
function controlKey(part: string, base: Key): [string, Key] {
  const key: Key = { ...base, return: false, ctrl: false, tab: false, backspace: false, delete: false };
  if (part === "\r" || part === "\r\n") return ["", { ...key, return: true }];
  if (part === "\t") return ["", { ...key, tab: true }];
  if (part === "\x7f" || part === "\b") return ["", { ...key, delete: true }];
  const code = part.charCodeAt(0);
  // Ctrl+J ("\n") stays text: the composer takes it as a line break.
  if (part.length === 1 && code >= 1 && code <= 26 && part !== "\n")
    return [String.fromCharCode(code + 96), { ...key, ctrl: true }];
  return [part, key];
}

/** xterm's modifyOtherKeys form of Shift+Enter; Ink leaves it as text without the ESC. */
const SHIFT_ENTER_CSI = "[27;2;13~";

function composerKey(ctl: TuiController, input: string, key: Key): void {
  const e = ctl.edit;
  // A newline instead of sending: Alt+Enter, Shift+Enter where the terminal tells it apart
  // (kitty / modifyOtherKeys), Ctrl+J, or a trailing backslash + Enter (everywhere else).
  if (
    (key.return && (key.meta || key.shift)) ||
    input === SHIFT_ENTER_CSI ||
    (!key.return && input === "\n")
  ) {
    ctl.setEdit(insert(e, "\n"));
    return;
  }
  if (key.return) {
    const continued = continuation(e);
    if (continued) ctl.setEdit(continued);
    else ctl.submit();
    return;
  }
  const next = editFor(ctl, e, input, key);
  if (next) ctl.setEdit(next);
}

/** The composer after a key that edits it or moves the cursor; undefined for other keys. */
function editFor(ctl: TuiController, e: Edit, input: string, key: Key): Edit | undefined {
  // Ink reports Backspace (\x7f) and Delete (\x1b[3~) both as `delete`: the raw sequence tells.
  if (key.delete && ctl.input.forwardDelete) return deleteForward(e);
  if (key.backspace || key.delete) return backspace(e);
  if (key.leftArrow) return left(e);
  if (key.rightArrow) return right(e);
  if (key.home || (key.ctrl && input === "a")) return home(e);
  if (key.end || (key.ctrl && input === "e")) return end(e);
  if (key.upArrow || key.downArrow) {
    const delta = key.upArrow ? -1 : 1;
    // Inside a multi-line prompt the cursor moves between lines; past the edge, history.
    const moved = verticalMove(e, delta);
    if (moved) return moved;
    const recalled = ctl.history.step(delta, e.text);
    return recalled === undefined ? undefined : { text: recalled, cursor: recalled.length };
  }
  if (key.ctrl && input === "u") return { text: "", cursor: 0 };
  if (key.ctrl || key.meta || key.escape || key.tab || !input) return undefined;
  return insert(e, input);
}
