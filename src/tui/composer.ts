// Pure editing of the composer: text plus a cursor (an index into the text, 0..length, always on
// a grapheme cluster's boundary: graphemes.ts, R-UI-25). Lines are split on "\n" so Home / End
// and Up / Down work per line in a multi-line prompt; Up / Down keep the caret's column as drawn.
import { width } from "./ansi.js";
import { indexAtColumn, nextBoundary, prevBoundary } from "./graphemes.js";

export interface Edit {
  text: string;
  cursor: number;
}

export function insert(e: Edit, s: string): Edit {
  return { text: e.text.slice(0, e.cursor) + s + e.text.slice(e.cursor), cursor: e.cursor + s.length };
}

/** Deletes the character (grapheme cluster) before the cursor. */
export function backspace(e: Edit): Edit {
  if (e.cursor === 0) return e;
  const from = prevBoundary(e.text, e.cursor);
  return { text: e.text.slice(0, from) + e.text.slice(e.cursor), cursor: from };
}

/** Deletes the character (grapheme cluster) under the cursor (the Delete key). */
export function deleteForward(e: Edit): Edit {
  if (e.cursor >= e.text.length) return e;
  return { text: e.text.slice(0, e.cursor) + e.text.slice(nextBoundary(e.text, e.cursor)), cursor: e.cursor };
}

export function left(e: Edit): Edit {
  return { ...e, cursor: prevBoundary(e.text, e.cursor) };
}

export function right(e: Edit): Edit {
  return { ...e, cursor: nextBoundary(e.text, e.cursor) };
}

/** Start of the cursor's line. */
export function home(e: Edit): Edit {
  return { ...e, cursor: e.text.lastIndexOf("\n", e.cursor - 1) + 1 };
}

/** End of the cursor's line. */
export function end(e: Edit): Edit {
  const next = e.text.indexOf("\n", e.cursor);
  return { ...e, cursor: next === -1 ? e.text.length : next };
}

/**
 * The cursor one line up (-1) or down (+1), keeping its column where the line is long enough;
 * undefined when there is no such line (the caller then recalls history instead).
 */
export function verticalMove(e: Edit, delta: -1 | 1): Edit | undefined {
  const start = home(e).cursor;
  const column = width(e.text.slice(start, e.cursor));
  if (delta < 0) {
    if (start === 0) return undefined;
    const prevStart = e.text.lastIndexOf("\n", start - 2) + 1;
    return { ...e, cursor: indexAtColumn(e.text, prevStart, start - 1, column) };
  }
  const lineEnd = end(e).cursor;
  if (lineEnd === e.text.length) return undefined;
  const nextStart = lineEnd + 1;
  const nextEnd = end({ ...e, cursor: nextStart }).cursor;
  return { ...e, cursor: indexAtColumn(e.text, nextStart, nextEnd, column) };
}

/**
 * Enter that continues the prompt on a new line instead of sending it: a backslash right before
 * the cursor (for terminals that send Shift+Enter as a plain Enter) becomes the line break.
 */
export function continuation(e: Edit): Edit | undefined {
  if (e.cursor === 0 || e.text[e.cursor - 1] !== "\\") return undefined;
  return insert(backspace(e), "\n");
}

/** Up / Down through earlier prompts (of this workspace); the draft comes back past the newest. */
export class History {
  /** entries.length = not browsing (the draft is shown). */
  private index: number;
  private draft = "";

  /** `entries`: earlier prompts, oldest first; `onAdd` keeps a new one (history-store.ts). */
  constructor(
    /** Read by Ctrl+R's search (history-search.ts); added to only through `add`. */
    readonly entries: string[] = [],
    private readonly onAdd?: (text: string) => void,
  ) {
    this.index = entries.length;
  }

  /** `saved`: the form to keep beyond this process (a paste placeholder expanded). */
  add(text: string, saved = text): void {
    if (text && this.entries.at(-1) !== text) {
      this.entries.push(text);
      this.onAdd?.(saved);
    }
    this.index = this.entries.length;
    this.draft = "";
  }

  /** The text to show after stepping, or undefined at either end. */
  step(delta: -1 | 1, current: string): string | undefined {
    const next = this.index + delta;
    if (next < 0 || next > this.entries.length) return undefined;
    if (this.index === this.entries.length) this.draft = current;
    this.index = next;
    return next === this.entries.length ? this.draft : this.entries[next];
  }
}
