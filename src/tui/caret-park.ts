// Where the frame writer leaves the terminal's (hidden) cursor between frames (R-UI-26): on the
// composer's caret, so an input method (Japanese, Chinese, Korean) opens its window at the text,
// as in pi and Claude Code. frame-writer.ts counts its moves from the parked cell while the width
// holds, and from the row below the frame once a resize re-wrapped it (`unpark` finds the way).

/** A cell of the frame: `y` its line (0 = the frame's first), `x` its column. */
export interface CellPosition {
  x: number;
  y: number;
}

export function samePosition(a: CellPosition | undefined, b: CellPosition | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.x === b.x && a.y === b.y);
}

/**
 * From the parked cell back to the row below the frame, column 0. `rowsOf` gives the rows a line
 * takes at the terminal's width now: a terminal narrowed since the frame was written has
 * re-wrapped its lines (the cursor moving with its cell), so the way down counts those rows.
 */
export function unpark(
  at: CellPosition | undefined,
  lines: string[],
  cols: number,
  rowsOf: (line: string) => number,
): string {
  if (!at || at.y >= lines.length) return "";
  let rows =
    rowsOf(lines[at.y]) - 1 - Math.min(rowsOf(lines[at.y]) - 1, Math.floor(at.x / Math.max(1, cols)));
  for (let i = at.y + 1; i < lines.length; i++) rows += rowsOf(lines[i]);
  return `\x1b[${rows + 1}B\r`;
}
