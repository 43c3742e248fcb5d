// The composer's vim mode (R-UI-30, `/vim` or `ui.vim: true`), pure: normal-mode keys on the
// composer's text — motions h j k l w b e 0 $, edits x dd dw cw D p, inserts i a A I o O, undo u —
// each with a count (`3w`, `2dd`); Esc leaves insert mode. Movements are by grapheme cluster
// (graphemes.ts), as the rest of the composer's.
import { type Edit, end, home, verticalMove } from "./composer.js";
import { nextBoundary, prevBoundary } from "./graphemes.js";
import { wordEnd, wordStart } from "./readline.js";

export type VimMode = "normal" | "insert";

export interface VimState {
  mode: VimMode;
  /** Keys typed toward a command not yet complete (a count, `d`, `c`). */
  pending: string;
  /** What the last delete took, for `p`; a whole line ends in "\n". */
  register: string;
}

export const vimStart = (): VimState => ({ mode: "insert", pending: "", register: "" });

/** What a normal-mode key does: the edit after it, the new state, and an undo asked for. */
export interface VimResult {
  state: VimState;
  edit?: Edit;
  undo?: boolean;
  /** Enter: send the prompt as in insert mode. */
  submit?: boolean;
}

const isWord = (c: string | undefined) => c !== undefined && /[\p{L}\p{N}_]/u.test(c);

/** Start of the next word (vim's `w`): past this word (or run of other characters) and the spaces after it. */
function nextWord(text: string, at: number): number {
  let i = at;
  const word = isWord(text[i]);
  while (i < text.length && !/\s/.test(text[i]) && isWord(text[i]) === word) i = nextBoundary(text, i);
  while (i < text.length && /[ \t]/.test(text[i])) i++;
  return i;
}

/** Last character of the word at or after the next character (vim's `e`). */
function wordLast(text: string, at: number): number {
  const after = wordEnd(text, nextBoundary(text, at));
  return Math.max(at, prevBoundary(text, after));
}

/** The caret on the line's last character, as normal mode keeps it (never past the end). */
function onChar(e: Edit): Edit {
  const lineEnd = end(e).cursor;
  const start = home(e).cursor;
  if (e.cursor >= lineEnd && lineEnd > start) return { ...e, cursor: prevBoundary(e.text, lineEnd) };
  return e;
}

/** The whole lines from the caret's, `n` of them: [start, end) including the last one's break. */
function lineSpan(e: Edit, n: number): [number, number] {
  const start = home(e).cursor;
  let stop = start;
  for (let k = 0; k < n; k++) {
    const nl = e.text.indexOf("\n", stop);
    stop = nl === -1 ? e.text.length : nl + 1;
    if (nl === -1) break;
  }
  return [start, stop];
}

function cut(e: Edit, from: number, to: number): { edit: Edit; taken: string } {
  return {
    edit: { text: e.text.slice(0, from) + e.text.slice(to), cursor: from },
    taken: e.text.slice(from, to),
  };
}

function repeat(n: number, e: Edit, step: (e: Edit) => Edit): Edit {
  let out = e;
  for (let k = 0; k < n; k++) out = step(out);
  return out;
}

/** A key in normal mode. `input`: the key's text; `enter`/`escape` for those keys. */
export function vimKey(
  state: VimState,
  e: Edit,
  input: string,
  key: { escape?: boolean; return?: boolean },
): VimResult {
  if (key.return) return { state: { ...state, pending: "" }, submit: true };
  if (key.escape) return { state: { ...state, pending: "" } };
  const seq = state.pending + input;
  const m = /^([1-9]\d*)?([dc]?)(.*)$/.exec(seq);
  if (!m) return { state: { ...state, pending: "" } };
  const count = m[1] ? Number(m[1]) : 1;
  const op = m[2];
  const cmd = m[3];
  // A count or an operator waits for the rest.
  if (cmd === "") return { state: { ...state, pending: seq } };
  const done = (edit: Edit, extra: Partial<VimState> = {}): VimResult => ({
    state: { ...state, pending: "", ...extra },
    edit,
  });
  const insert = (edit: Edit) => done(edit, { mode: "insert" });
  if (op) {
    if (cmd === op) {
      // dd / cc: whole lines.
      const [from, to] = lineSpan(e, count);
      const { edit, taken } = cut(e, from, to);
      const register = taken.endsWith("\n") ? taken : `${taken}\n`;
      if (op === "c")
        return {
          state: { ...state, pending: "", mode: "insert", register },
          edit: cut(e, from, to - (taken.endsWith("\n") ? 1 : 0)).edit,
        };
      return {
        state: { ...state, pending: "", register },
        edit: onChar({ ...edit, cursor: Math.min(from, edit.text.length) }),
      };
    }
    let to = e.cursor;
    const ends = (x: Edit) => ({ ...x, cursor: wordLast(x.text, x.cursor) });
    // `cw` changes to the word's end, as vim does (`ce`); `dw` deletes to the next word's start.
    if (cmd === "w" && op === "d")
      to = repeat(count, e, (x) => ({ ...x, cursor: nextWord(x.text, x.cursor) })).cursor;
    else if (cmd === "w") to = nextBoundary(e.text, repeat(count, e, ends).cursor);
    else if (cmd === "e") to = nextBoundary(e.text, repeat(count, e, ends).cursor);
    else if (cmd === "$") to = end(e).cursor;
    else if (cmd === "b") to = e.cursor;
    else return { state: { ...state, pending: "" } };
    const from =
      cmd === "b"
        ? repeat(count, e, (x) => ({ ...x, cursor: wordStart(x.text, x.cursor) })).cursor
        : e.cursor;
    const { edit, taken } = cut(e, from, Math.min(to, e.text.length));
    if (op === "c") return { state: { ...state, pending: "", mode: "insert", register: taken }, edit };
    return { state: { ...state, pending: "", register: taken }, edit: onChar(edit) };
  }
  switch (cmd) {
    case "h":
      return done(
        repeat(count, e, (x) =>
          x.cursor > home(x).cursor ? { ...x, cursor: prevBoundary(x.text, x.cursor) } : x,
        ),
      );
    case "l":
      return done(
        onChar(
          repeat(count, e, (x) =>
            x.cursor < end(x).cursor ? { ...x, cursor: nextBoundary(x.text, x.cursor) } : x,
          ),
        ),
      );
    case "j":
    case "k":
      return done(onChar(repeat(count, e, (x) => verticalMove(x, cmd === "j" ? 1 : -1) ?? x)));
    case "w":
      return done(onChar(repeat(count, e, (x) => ({ ...x, cursor: nextWord(x.text, x.cursor) }))));
    case "b":
      return done(repeat(count, e, (x) => ({ ...x, cursor: wordStart(x.text, x.cursor) })));
    case "e":
      return done(repeat(count, e, (x) => ({ ...x, cursor: wordLast(x.text, x.cursor) })));
    case "0":
      return done(home(e));
    case "$":
      return done(onChar(end(e)));
    case "x": {
      const to = repeat(count, e, (x) =>
        x.cursor < end(x).cursor ? { ...x, cursor: nextBoundary(x.text, x.cursor) } : x,
      ).cursor;
      const { edit, taken } = cut(e, e.cursor, to);
      return taken ? done(onChar(edit), { register: taken }) : done(e);
    }
    case "D": {
      const { edit, taken } = cut(e, e.cursor, end(e).cursor);
      return done(onChar(edit), { register: taken });
    }
    case "p": {
      if (!state.register) return done(e);
      const text = state.register.repeat(count);
      if (state.register.endsWith("\n")) {
        // A line goes below the caret's line.
        const lineEnd = end(e).cursor;
        const at = lineEnd;
        const body = `\n${text.slice(0, -1)}`;
        return done({ text: e.text.slice(0, at) + body + e.text.slice(at), cursor: at + 1 });
      }
      const at =
        e.cursor < e.text.length && e.text[e.cursor] !== "\n" ? nextBoundary(e.text, e.cursor) : e.cursor;
      return done({
        text: e.text.slice(0, at) + text + e.text.slice(at),
        cursor: prevBoundary(e.text.slice(0, at) + text, at + text.length),
      });
    }
    case "u":
      return { state: { ...state, pending: "" }, undo: true };
    case "i":
      return insert(e);
    case "a":
      return insert(e.cursor < end(e).cursor ? { ...e, cursor: nextBoundary(e.text, e.cursor) } : e);
    case "A":
      return insert(end(e));
    case "I":
      return insert(home(e));
    case "o": {
      const at = end(e).cursor;
      return insert({ text: `${e.text.slice(0, at)}\n${e.text.slice(at)}`, cursor: at + 1 });
    }
    case "O": {
      const at = home(e).cursor;
      return insert({ text: `${e.text.slice(0, at)}\n${e.text.slice(at)}`, cursor: at });
    }
    default:
      return { state: { ...state, pending: "" } };
  }
}
