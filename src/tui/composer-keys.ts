// Keys of the composer (R-UI-14): the completion menu first (↑/↓ choose, Tab completes, Enter
// takes, Esc closes), then line breaks (Shift/Alt+Enter, Ctrl+J, `\` + Enter), readline
// editing, history and the queue take-back on ↑, $EDITOR (Ctrl+G, Ctrl+X Ctrl+E), Ctrl+R's history
// search (history-search-keys.ts while it is open) and Ctrl+V's clipboard paste (clipboard.ts).
import type { Key } from "ink";
import {
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
import type { ComposerInput } from "./composer-input.js";
import type { TuiController } from "./controller.js";
import { searchKey } from "./history-search-keys.js";
import {
  type Cut,
  killToEnd,
  killToStart,
  killWordBack,
  killWordForward,
  wordLeft,
  wordRight,
} from "./readline.js";

/**
 * Enter with a modifier in xterm's modifyOtherKeys form (Shift, Alt, Ctrl); Ink leaves it as
 * text without the ESC. The kitty form (`CSI 13;2u`) arrives parsed as return + shift.
 */
const MODIFIED_ENTER = new Set(["[27;2;13~", "[27;3;13~", "[27;5;13~", "[27;6;13~"]);

export function composerKey(ctl: TuiController, input: string, key: Key): void {
  const c = ctl.composer;
  const ctrlX = c.ctrlXPending;
  c.ctrlXPending = false;
  if (c.search.active && searchKey(c, input, key)) return;
  if (key.ctrl && input === "r" && !c.search.active) {
    c.search.open(c.edit);
    return;
  }
  if (c.menuFor(key) && menuKey(ctl, key)) return;
  // R-UI-30: vim's normal mode takes printable keys, Enter and Esc; the rest go on as usual.
  const vim = c.vim.normalKey(input, key);
  if (vim) {
    if (vim.submit) ctl.submit();
    return;
  }
  const e = c.edit;
  if (
    (key.return && (key.meta || key.shift || key.ctrl)) ||
    MODIFIED_ENTER.has(input) ||
    (!key.return && input === "\n")
  ) {
    c.set(insert(e, "\n"));
  } else if (key.return) {
    const continued = continuation(e);
    if (continued) c.set(continued);
    else ctl.submit();
  } else if (isUndo(input, key)) {
    // R-UI-27: Ctrl+_ undoes (Ctrl+X first: redoes); readline's Ctrl+X Ctrl+U undoes too.
    if (ctrlX) c.redo();
    else c.undo();
  } else if (ctrlX && key.ctrl && input === "u") {
    c.undo();
  } else if (input === "_" && (key.meta || ctl.input.altUnderscore)) {
    c.redo();
  } else if (key.ctrl && (input === "g" || (ctrlX && input === "e"))) {
    c.openEditor();
  } else if (key.ctrl && input === "x") {
    c.ctrlXPending = true;
  } else if (key.ctrl && input === "d" && e.text === "") {
    // As in a shell: Ctrl+D on an empty prompt leaves; on text it deletes under the cursor.
    void ctl.quit();
  } else if (key.ctrl && input === "y") {
    c.yank();
  } else if (key.ctrl && input === "v") {
    void c.clipboard.paste();
  } else if (key.tab && !key.shift && !c.menu) {
    c.completeArgument();
  } else if (key.upArrow && c.takeBackQueued()) {
    // The newest queued follow-up is back in the composer.
  } else if (key.upArrow || key.downArrow) {
    recall(c, e, key.upArrow ? -1 : 1);
  } else {
    const next = editFor(ctl, e, input, key);
    if (next && "killed" in next) c.cut(next);
    else if (next) c.set(next);
  }
}

/**
 * Ctrl+_ as terminals send it: the control character 0x1F (also Ctrl+/ and Ctrl+- in most), or
 * with the kitty keyboard protocol on, `_`, `/` or `-` with Ctrl.
 */
function isUndo(input: string, key: Key): boolean {
  if (input === "\x1f") return true;
  return key.ctrl && !key.meta && (input === "_" || input === "/" || input === "-");
}

/** C0 control characters (bar the line break) and DEL: never text a person meant to type. */
const CONTROL = /[\x00-\x09\x0b-\x1f\x7f]/g;

/** An extended key report Ink left as text without its ESC. */
const UNKNOWN_KEY_REPORT = /^\[(?:27;\d+;\d+~|\d+(?:;\d+)*u)$/;

/** Inside a multi-line prompt the cursor moves between lines; past the edge, history. */
function recall(c: ComposerInput, e: Edit, delta: -1 | 1): void {
  const moved = verticalMove(e, delta);
  const recalled = moved ? undefined : c.history.step(delta, e.text);
  if (moved) c.set(moved);
  else if (recalled !== undefined) c.recall(recalled);
}

/** The composer after a key that edits it or moves the cursor (a Cut when it kills text). */
function editFor(ctl: TuiController, e: Edit, input: string, key: Key): Edit | Cut | undefined {
  if (key.ctrl && !key.meta) {
    if (input === "a") return home(e);
    if (input === "e") return end(e);
    if (input === "d") return deleteForward(e);
    if (input === "w") return killWordBack(e);
    if (input === "k") return killToEnd(e);
    if (input === "u") return killToStart(e);
  }
  const forwardDelete = key.delete && ctl.input.forwardDelete;
  if (key.meta && !key.ctrl) {
    if (input === "b") return wordLeft(e);
    if (input === "f") return wordRight(e);
    if (input === "d") return killWordForward(e);
    // Alt+Backspace: the word before the cursor, as Ctrl+W.
    if ((key.delete || key.backspace) && !forwardDelete) return killWordBack(e);
  }
  // Ink reports Backspace (\x7f) and Delete (\x1b[3~) both as `delete`: the raw sequence tells.
  if (forwardDelete) return deleteForward(e);
  if (key.backspace || key.delete) return ctl.composer.backspaceEdit();
  if (key.leftArrow) return key.ctrl || key.meta ? wordLeft(e) : left(e);
  if (key.rightArrow) return key.ctrl || key.meta ? wordRight(e) : right(e);
  if (key.home) return home(e);
  if (key.end) return end(e);
  if (key.ctrl || key.meta || key.escape || key.tab || !input) return undefined;
  // R-UI-27: a control key without a binding (Ctrl+], Ctrl+\, Ctrl+^) is ignored, never inserted.
  // So is an extended-key report tern does not know (modifyOtherKeys' `[27;5;93~`, kitty's `[93;5u`).
  if (UNKNOWN_KEY_REPORT.test(input)) return undefined;
  const text = input.replace(CONTROL, "");
  return text ? insert(e, text) : undefined;
}

/** Keys the open completion menu takes; false lets the key through to the composer. */
function menuKey(ctl: TuiController, key: Key): boolean {
  const c = ctl.composer;
  if (key.upArrow || key.downArrow) {
    c.moveMenu(key.upArrow ? -1 : 1);
    return true;
  }
  if (key.tab && !key.shift) {
    c.acceptMenu();
    return true;
  }
  if (key.escape) {
    c.dismissMenu();
    return true;
  }
  if (key.return && !key.shift && !key.meta) {
    const kind = c.menu?.kind;
    const item = c.acceptMenu();
    // A command runs at once unless it needs an argument; a file name only goes in.
    if ((kind === "command" && item && !item.needsArgs) || kind === "argument") ctl.submit();
    return true;
  }
  return false;
}
