// Readline editing of the composer (R-UI-14), pure: word movement (Alt+B/F, Ctrl+←/→), kills
// (Ctrl+W/K/U) that return what they cut for Ctrl+Y, and Ctrl+D's delete-under-cursor. Words
// are runs of letters, digits and `_`, as in readline; kills stop at line breaks like Ctrl+U
// does in a shell, so one key never wipes a whole multi-line prompt. Every step is a grapheme
// cluster (R-UI-25): a cluster is a word character when its first code point is one.
import { type Edit, home as lineStart, end as lineEnd } from "./composer.js";
import { nextBoundary, prevBoundary } from "./graphemes.js";

export interface Cut {
  edit: Edit;
  /** The text removed, for Ctrl+Y; empty when nothing was cut. */
  killed: string;
}

const WORD = /[\p{L}\p{N}_]/u;

/** Start of the word before the cursor (skipping the non-word characters before it). */
export function wordStart(text: string, cursor: number): number {
  return back(
    text,
    cursor,
    (c) => !WORD.test(c),
    (c) => WORD.test(c),
  );
}

/** End of the word after the cursor (skipping the non-word characters before it). */
export function wordEnd(text: string, cursor: number): number {
  let i = cursor;
  while (i < text.length && !WORD.test(clusterAt(text, i))) i = nextBoundary(text, i);
  while (i < text.length && WORD.test(clusterAt(text, i))) i = nextBoundary(text, i);
  return i;
}

/** The first code point of the cluster starting at `i`. */
function clusterAt(text: string, i: number): string {
  return String.fromCodePoint(text.codePointAt(i) ?? 0);
}

/** Back from `cursor` over clusters while `skip` holds, then while `take` holds. */
function back(
  text: string,
  cursor: number,
  skip: (c: string) => boolean,
  take: (c: string) => boolean,
): number {
  let i = cursor;
  for (const test of [skip, take]) {
    while (i > 0) {
      const p = prevBoundary(text, i);
      if (!test(clusterAt(text, p))) break;
      i = p;
    }
  }
  return i;
}

export function wordLeft(e: Edit): Edit {
  return { ...e, cursor: wordStart(e.text, e.cursor) };
}

export function wordRight(e: Edit): Edit {
  return { ...e, cursor: wordEnd(e.text, e.cursor) };
}

function cut(e: Edit, from: number, to: number): Cut {
  if (from >= to) return { edit: e, killed: "" };
  return {
    edit: { text: e.text.slice(0, from) + e.text.slice(to), cursor: from },
    killed: e.text.slice(from, to),
  };
}

/**
 * Ctrl+W: the whitespace-delimited word before the cursor, as readline's unix-word-rubout
 * (so `src/a.ts` goes in one press); at a line start it joins the line to the one above.
 */
export function killWordBack(e: Edit): Cut {
  const i = back(
    e.text,
    e.cursor,
    (c) => c === " " || c === "\t",
    () => false,
  );
  if (i > 0 && e.text[i - 1] === "\n") return cut(e, i - 1, e.cursor);
  return cut(
    e,
    back(
      e.text,
      i,
      () => false,
      (c) => !/\s/.test(c),
    ),
    e.cursor,
  );
}

/** Alt+D: the word after the cursor. */
export function killWordForward(e: Edit): Cut {
  return cut(e, e.cursor, wordEnd(e.text, e.cursor));
}

/** Ctrl+K: to the end of the line; at a line end, the line break (joining the next line). */
export function killToEnd(e: Edit): Cut {
  const to = lineEnd(e).cursor;
  return cut(e, e.cursor, to === e.cursor && to < e.text.length ? to + 1 : to);
}

/** Ctrl+U: to the start of the line (not the whole prompt); at a line start, the break before it. */
export function killToStart(e: Edit): Cut {
  const from = lineStart(e).cursor;
  return cut(e, from === e.cursor && from > 0 ? from - 1 : from, e.cursor);
}
