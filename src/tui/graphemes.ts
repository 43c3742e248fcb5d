// Grapheme clusters of the composer's text (R-UI-25): what a person sees as one character (an
// emoji with its skin tone, a ZWJ family, `e` + U+0301, a flag) is one step for every movement and
// deletion, so the caret never stops inside one and a deletion never leaves half of it (`ab🙂` +
// Backspace was `ab�`). Widths are the renderer's (fast-width.ts, string-width's measure).
import { width } from "./ansi.js";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** True when every code unit of `text` is its own cluster (ASCII without CR): no segmenting needed. */
function simple(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7e || c === 0x0d) return false;
  }
  return true;
}

/** The clusters of `text`, in order. */
export function graphemes(text: string): string[] {
  if (simple(text)) return text.split("");
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** The cluster boundary before `index` (0 at the start). */
export function prevBoundary(text: string, index: number): number {
  if (index <= 0) return 0;
  const at = Math.min(index, text.length);
  // A printable ASCII character after one below U+0300 (no prepend mark, no joiner) is a cluster
  // of its own: the common case answered without a segmenter.
  const c = text.charCodeAt(at - 1);
  if (c >= 0x20 && c <= 0x7e && (at === 1 || text.charCodeAt(at - 2) < 0x300)) return at - 1;
  return segmenter.segment(text).containing(at - 1)?.index ?? at - 1;
}

/** The cluster boundary after `index` (the text's length at the end). */
export function nextBoundary(text: string, index: number): number {
  if (index >= text.length) return text.length;
  const c = text.charCodeAt(index);
  if (c >= 0x20 && c <= 0x7e && !(text.charCodeAt(index + 1) >= 0x300)) return index + 1;
  const seg = segmenter.segment(text).containing(Math.max(0, index));
  return seg ? seg.index + seg.segment.length : index + 1;
}

/**
 * The index in `text` (from `from`, up to the first line break) whose columns from `from` reach
 * `column` without passing it: where a caret keeps its column on another line.
 */
export function indexAtColumn(text: string, from: number, to: number, column: number): number {
  let at = from;
  let columns = 0;
  for (const g of graphemes(text.slice(from, to))) {
    const w = width(g);
    if (columns + w > column) break;
    columns += w;
    at += g.length;
  }
  return at;
}
