// The composer drawn as rows (R-UI-25, R-UI-26): its text wrapped inside the border by grapheme
// cluster and measured as the renderer measures (fast-width.ts), the caret's cluster painted in
// inverse video, and where that cell is, so the terminal's own (hidden) cursor can be parked on
// it and an input method's window opens at the text (app.tsx → frame-writer.ts).
import { count, style, width } from "./ansi.js";
import { graphemes } from "./graphemes.js";

/** Where the caret is drawn: a row of the composer's rows and a column from the row's start. */
export interface Caret {
  row: number;
  col: number;
}

export interface ComposerLayout {
  rows: string[];
  caret: Caret;
}

/** What the composer draws for typed text: a tab as two spaces, a control character as ^X. */
function composerText(text: string): string {
  return text
    .replace(/\t/g, "  ")
    .replace(/[\x00-\x08\x0b-\x1f\x7f]/g, (c) => `^${String.fromCharCode(c.charCodeAt(0) ^ 64)}`);
}

/** Columns of one cluster: printable ASCII without asking. */
function clusterWidth(g: string): number {
  return g.length === 1 && g.charCodeAt(0) < 0x7f ? 1 : width(g);
}

/**
 * A line's rows at `max` columns, as [start, end) offsets into it: broken after the last space
 * that fits (the space stays on its row), else before the cluster that does not fit. A cluster
 * is never split, so a wide character or an emoji never straddles two rows.
 */
export function wrapClusters(line: string, max: number): [number, number][] {
  const rows: [number, number][] = [];
  let start = 0;
  let columns = 0;
  let at = 0;
  /** Offset just after the last space in the current row, and the columns up to it. */
  let space = -1;
  let spaceColumns = 0;
  for (const g of graphemes(line)) {
    const w = clusterWidth(g);
    if (columns + w > max && at > start) {
      const breakAt = space > start ? space : at;
      rows.push([start, breakAt]);
      columns -= breakAt === at ? columns : spaceColumns;
      start = breakAt;
      space = -1;
    }
    at += g.length;
    columns += w;
    if (g === " ") {
      space = at;
      spaceColumns = columns;
    }
  }
  rows.push([start, line.length]);
  return rows;
}

/**
 * The composer text with the caret's cell drawn inverse, wrapped inside the box (`inner`
 * columns, the prompt included), capped to `max` rows around the caret.
 */
export function composerLayout(
  text: string,
  cursor: number,
  prompt: string,
  inner: number,
  max: number,
): ComposerLayout {
  const pad = " ".repeat(prompt.length);
  const room = Math.max(1, inner - prompt.length);
  const rows: string[] = [];
  let caret: Caret = { row: 0, col: prompt.length };
  let offset = 0;
  const lines = text.split("\n");
  for (const [i, line] of lines.entries()) {
    const lineStart = offset;
    offset += line.length + 1;
    const clean = composerText(line);
    // Where the caret falls in the drawn text (a tab or control character takes two cells).
    const inLine = cursor - lineStart;
    const at = inLine >= 0 && inLine <= line.length ? composerText(line.slice(0, inLine)).length : -1;
    const spans = wrapClusters(clean, room);
    for (const [j, [from, to]] of spans.entries()) {
      const row = clean.slice(from, to);
      const lead = i === 0 && j === 0 ? prompt : pad;
      const last = j === spans.length - 1;
      if (at < from || at > to || (at === to && !last)) {
        rows.push(lead + row);
        continue;
      }
      const k = at - from;
      const cell = k < row.length ? (graphemes(row.slice(k))[0] ?? " ") : " ";
      const before = row.slice(0, k);
      const col = prompt.length + width(before);
      if (k === row.length && col >= inner) {
        // A full last row: the caret's cell after it goes on a row of its own.
        rows.push(lead + row);
        caret = { row: rows.length, col: prompt.length };
        rows.push(pad + style.inverse(" "));
        continue;
      }
      caret = { row: rows.length, col };
      rows.push(`${lead}${before}${style.inverse(cell)}${row.slice(k + (k < row.length ? cell.length : 0))}`);
    }
  }
  if (rows.length <= max) return { rows, caret };
  // A window around the caret, with a count of what is hidden.
  const keep = Math.max(1, max - 1);
  const start = Math.max(0, Math.min(caret.row - keep + 1, rows.length - keep));
  const hidden = rows.length - keep;
  return {
    rows: [...rows.slice(start, start + keep), style.gray(`${pad}(${count(hidden, "more line")})`)],
    caret: { row: caret.row - start, col: caret.col },
  };
}

/** The composer's rows alone (see composerLayout). */
export function composerRows(
  text: string,
  cursor: number,
  prompt: string,
  inner: number,
  max: number,
): string[] {
  return composerLayout(text, cursor, prompt, inner, max).rows;
}

/**
 * The composer's rows in their border, as Ink's `borderStyle="single"` box with `paddingX={1}`
 * drew them (the same cells and colours), so the whole live region is rows handed to Ink as one
 * text: one node to lay out, and no row where ink-output.ts builds Ink's cell grid to put a
 * border beside the text, every frame. The caret's column in the box is its column + 2.
 */
export function composerBox(rows: string[], cols: number, colour: (text: string) => string): string[] {
  const inner = Math.max(4, cols - 4);
  const rule = "─".repeat(inner + 2);
  const side = colour("│");
  return [
    colour(`┌${rule}┐`),
    ...rows.map((row) => `${side} ${row}${" ".repeat(Math.max(0, inner - width(row)))} ${side}`),
    colour(`└${rule}┘`),
  ];
}
