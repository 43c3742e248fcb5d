// All key handling in one place: which keys mean what depends on what is on screen
// (approval prompt, side panel, composer).
import type { Key } from "ink";
import { approvalKey } from "./approval-keys.js";
import { composerKey } from "./composer-keys.js";
import { controlKey, keyParts } from "./key-parts.js";
import type { TuiController } from "./controller.js";
import { lastFrame } from "./last-frame.js";
import { pickerFlowKey } from "./picker-flow.js";
import { openRewind } from "./rewind-picker.js";

/** Two Esc presses this close together at an idle, empty prompt open the rewind picker (R-UI-29). */
const DOUBLE_ESC_MS = 800;
let lastEscape = Number.NEGATIVE_INFINITY;

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
  // chunk as text, so each control key in it is replayed as a key of its own (key-parts.ts).
  const parts = keyParts(input, key);
  if (parts.length > 1) {
    for (const part of parts) handleKey(ctl, ...part);
    return;
  }
  const state = ctl.state;
  // The session picker takes every key while it is open (R-UI-17); Ctrl+C and Esc leave it.
  if (state.picker) {
    pickerFlowKey(ctl, input, key);
    return;
  }
  // Ctrl+C leaves an open history search first, as Esc does: the innermost thing stops.
  if (key.ctrl && input === "c" && ctl.composer.search.active) {
    ctl.composer.search.cancel();
    return;
  }
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
  if (state.side.open && sideKey(ctl, input, key)) return;
  // R-UI-24: Shift+Tab cycles the permission mode (Tab alone completes in the composer).
  if (key.tab && key.shift) {
    void ctl.cycleMode();
    return;
  }
  // R-UI-12: Esc interrupts a running turn like Ctrl+C; an open completion menu takes Esc first.
  if (key.escape && state.busy && !state.menu && !state.searching) {
    ctl.ctrlC();
    return;
  }
  // R-UI-30: Esc in vim's insert mode is normal mode.
  if (key.escape && !state.busy && !state.menu && !state.searching && ctl.composer.vim.escape()) return;
  if (key.escape && !state.busy && !state.menu && !state.searching && state.composer === "") {
    // (Ink marks every Esc as meta: the raw ESC ESC or the time between two tells a double press.)
    const now = performance.now();
    const double = ctl.input.doubleEscape || now - lastEscape < DOUBLE_ESC_MS;
    lastEscape = double ? Number.NEGATIVE_INFINITY : now;
    if (double) openRewind(ctl);
    return;
  }
  composerKey(ctl, input, key);
}

/**
 * R-SIDE-5: Esc, Enter or Space close the panel; Left / Right step; x clears the thread; a
 * finished answer taller than the panel scrolls with PgUp/PgDn, and with ↑/↓ when the composer
 * is empty. Only Esc and the page keys act while the composer holds text: typing always reaches
 * the composer.
 */
function sideKey(ctl: TuiController, input: string, key: Key): boolean {
  const state = ctl.state;
  if (key.escape && !state.menu) {
    ctl.store.dispatch({ type: "side_close" });
    return true;
  }
  const scroll = state.side.pending ? null : lastFrame.side;
  if (scroll && (key.pageUp || key.pageDown)) {
    ctl.store.dispatch({
      type: "side_scroll",
      delta: key.pageUp ? -scroll.page : scroll.page,
      max: scroll.max,
    });
    return true;
  }
  if (state.composer !== "") return false;
  if (scroll && (key.upArrow || key.downArrow) && !state.menu) {
    ctl.store.dispatch({ type: "side_scroll", delta: key.upArrow ? -1 : 1, max: scroll.max });
    return true;
  }
  if (key.return || input === " ") ctl.store.dispatch({ type: "side_close" });
  else if (key.leftArrow) ctl.store.dispatch({ type: "side_step", delta: -1 });
  else if (key.rightArrow) ctl.store.dispatch({ type: "side_step", delta: 1 });
  else if (input === "x" && !key.ctrl && !key.meta && !state.side.pending)
    ctl.store.dispatch({ type: "side_clear" });
  else return false;
  return true;
}
