// Where the frame writer leaves the terminal's (hidden) cursor between frames (R-UI-26): on the
// composer's caret, so an input method (Japanese, Chinese, Korean) opens its window at the text,
// as in pi and Claude Code, at an idle prompt and while a turn streams alike. frame-writer.ts
// counts its moves from the parked cell while the terminal's size holds; once a resize has
// re-wrapped the frame, `rowsUpToTop` finds the frame's first row from the cursor, and the frame
// is drawn again from there.
//
// Terminals re-wrap around a cursor that is not on the last row in two ways (measured: tmux 3.3
// and @xterm/headless 6, the frame's lines each one row at the width they were written at):
// - "cell" (tmux; the default for every terminal not named below: VTE, kitty, Alacritty and
//   WezTerm move the cursor with its cell as they re-wrap, not measured here): every line is
//   re-wrapped and the cursor moves with its cell.
// - "screen-row" (xterm.js, in VS Code, Hyper, Tabby): the cursor keeps its distance to the
//   screen's bottom, so each row added below it moves it down, away from its cell; and the line
//   it points at while xterm.js re-wraps from the bottom up is left unwrapped (cut at the width).
// Counting the "cell" way in xterm.js put the erase one row above the frame: a line of the
// scrollback was erased.

/** A cell of the frame: `y` its line (0 = the frame's first), `x` its column. */
export interface CellPosition {
  x: number;
  y: number;
}

export type Reflow = "cell" | "screen-row";

/** Hosts of xterm.js that say who they are (TERM_PROGRAM); tmux inside one re-wraps its own way. */
const XTERM_JS_HOSTS = new Set(["vscode", "Hyper", "Tabby"]);

export function terminalReflow(env: NodeJS.ProcessEnv): Reflow {
  if (env.TMUX) return "cell";
  return XTERM_JS_HOSTS.has(env.TERM_PROGRAM ?? "") ? "screen-row" : "cell";
}

export function samePosition(a: CellPosition | undefined, b: CellPosition | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.x === b.x && a.y === b.y);
}

/**
 * Rows from the parked cell up to the frame's first row after the terminal was resized to
 * `cols` columns. `lines` were each one row at the width they were written at; `rowsOf` gives
 * the rows a line takes at `cols` (1 at that width, or after a change of height only: then no
 * row was re-wrapped, and rows cut off below the cursor do not matter from here). `lower`: the
 * rows the screen lost at the same time.
 */
export function rowsUpToTop(
  at: CellPosition,
  lines: string[],
  cols: number,
  rowsOf: (line: string) => number,
  reflow: Reflow,
  lower = 0,
): number {
  const y = Math.min(at.y, lines.length - 1);
  if (y < 0) return 0;
  if (reflow === "cell") {
    let up = Math.min(rowsOf(lines[y]) - 1, Math.floor(at.x / Math.max(1, cols)));
    for (let i = 0; i < y; i++) up += rowsOf(lines[i]);
    return up;
  }
  // xterm.js: a screen made lower first loses the rows below the cursor (the row below the
  // frame, then the frame's last lines; taken here as on a full screen, where no blank row is
  // below the frame). Then, from the bottom line up, each re-wrapped line moves the cursor down
  // by the rows it adds (the cursor's line meanwhile sliding down the frame); the line the
  // cursor is on when its turn comes stays one row. The rows added inside the frame are between.
  const dropped = Math.max(0, Math.min(lower, lines.length - y) - 1);
  let cursorLine = y;
  let up = y;
  for (let i = lines.length - 1 - dropped; i >= 0; i--) {
    const added = rowsOf(lines[i]) - 1;
    if (added <= 0 || i === cursorLine) continue;
    cursorLine += added;
    up += added;
  }
  return up;
}
