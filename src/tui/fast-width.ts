// string-width with a fast path. string-width segments any text that is not plain ASCII into
// grapheme clusters (Intl.Segmenter) and tests each cluster against several Unicode-property
// regexes: the UI's rows nearly all hold a `·`, `│`, `↓` or a spinner's braille cell and SGR
// colours, and measuring them was the largest single cost of a streamed frame (status line,
// progress row, Ink's widestLine and measureText, wrap-ansi, the frame writer). Text made only
// of SGR/CSI sequences and characters that are each their own one-column cluster is counted in
// one pass over its code units; anything else (CJK, emoji, combining marks, controls, OSC
// links) goes to string-width itself. The build bundles this module in place of string-width
// for Ink and the packages around it (scripts/build-plugins.mjs, fastStringWidth), so every
// measure in the UI takes the same path and gets the same answer.
import stringWidth from "string-width";

/**
 * Code units (BMP) string-width counts as one column and that never join a neighbour of this
 * set into one grapheme cluster: no marks, joiners, controls, emoji-presentation or wide
 * characters. test/tui/fast-width.test.ts checks every one against string-width.
 */
export const NARROW: readonly (readonly [number, number])[] = [
  [0x00a0, 0x00ac], // Latin-1 (0xAD, the soft hyphen, is zero-width)
  [0x00ae, 0x02ff], // Latin Extended, IPA, spacing modifiers
  [0x0370, 0x0482], // Greek, Cyrillic (0x483.. are combining marks)
  [0x048a, 0x052f],
  [0x2010, 0x2027], // dashes, quotes, •, …
  [0x2030, 0x205e],
  [0x2070, 0x20c0], // super/subscripts, currency
  [0x2100, 0x2319], // letterlike, arrows, maths, technical (0x231A ⌚ is an emoji)
  [0x2400, 0x243f], // control pictures (␛)
  [0x2460, 0x24ff],
  [0x2500, 0x25fc], // box drawing, blocks, shapes (0x25FD ◽ is an emoji)
  [0x2800, 0x28ff], // braille (the spinner)
  [0xfffd, 0xfffd],
];

function narrow(c: number): boolean {
  if (c < 0x00a0 || c > 0xfffd) return false;
  for (const [from, to] of NARROW) {
    if (c < from) return false;
    if (c <= to) return true;
  }
  return false;
}

/** The index after a complete CSI sequence starting at `at` (ESC [), or -1: strip-ansi's CSI grammar. */
function csiEnd(text: string, at: number): number {
  let i = at + 2;
  while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x3f) i++;
  while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
  const final = text.charCodeAt(i);
  return final >= 0x40 && final <= 0x7e ? i + 1 : -1;
}

/**
 * Columns of `text` when it holds only SGR/CSI sequences and characters that are each their own
 * one-column cluster (counted in one pass over its code units), else -1.
 */
export function simpleWidth(text: string): number {
  let columns = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if ((c >= 0x20 && c <= 0x7e) || narrow(c)) {
      columns++;
      i++;
    } else if (c === 0x1b && text.charCodeAt(i + 1) === 0x5b) {
      i = csiEnd(text, i);
      if (i < 0) return -1;
    } else return -1;
  }
  return columns;
}

/** Columns `text` takes: string-width's answer, from one scan when every character is simple. */
export default function width(text: string, options?: Parameters<typeof stringWidth>[1]): number {
  if (typeof text !== "string" || text.length === 0) return 0;
  if (options && (options.ambiguousIsNarrow === false || options.countAnsiEscapeCodes))
    return stringWidth(text, options);
  const columns = simpleWidth(text);
  return columns >= 0 ? columns : stringWidth(text);
}
