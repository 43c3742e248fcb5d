// The live region's writer: what Ink calls to put a frame on the terminal (its `log`), in place
// of Ink's own, which erases and rewrites the whole region every frame (~440 bytes per streamed
// character). This one keeps the last frame's lines and rewrites only the lines that changed,
// moving over the rest (R-UI-22). Between writes the (hidden) cursor rests on the composer's caret
// where the UI names one (caret-park.ts, R-UI-26), else on the row below the frame, as with Ink's.
// Every write starts from where the last one left the cursor: the parked cell while the
// terminal's size holds; after a resize, the frame's first row found from there (caret-park.ts)
// and the whole frame drawn again.
//
// Resize (R-UI-13): a terminal that gets narrower re-wraps the rows on screen, so the frame takes
// more rows than were written, and erasing it by the count written leaves its top rows (the
// progress row, the composer's border) in the scrollback. The writer reads the terminal's width
// at every write and erases by the rows the frame takes at that width. (A terminal that shrinks
// while a frame is still in the pipe draws that frame's erase against rows it has re-wrapped
// since: a race no program can win. Keeping the cursor at the region's top instead would not
// help: xterm.js moves the cursor down by the rows a re-wrap adds below it. tmux instead keeps
// the cursor on its screen row and pushes the rows above into the scrollback: on a nearly empty
// screen narrowed a lot, the frame's top rows go there before any program hears of the resize,
// and the erase, clamped at the screen's first row, takes the rest; see ERASE_ROWS_DOWN.)
import { width } from "./ansi.js";
import { type CellPosition, type Reflow, rowsUpToTop, samePosition } from "./caret-park.js";
import { lineEdit } from "./line-edit.js";

/** What the writer writes to: the terminal, or a byte counter in a test. */
export interface FrameSink {
  write(text: string): unknown;
}

/** The interface Ink's renderer drives (ink/build/log-update.d.ts, `LogUpdate`). */
export interface FrameWriter {
  (frame: string): boolean;
  clear(): void;
  done(): void;
  sync(frame: string): void;
  setCursorPosition(position: { x: number; y: number } | undefined): void;
  isCursorDirty(): boolean;
  willRender(frame: string): boolean;
}

const HIDE_CURSOR = "\x1b[?25l";
const SHOW_CURSOR = "\x1b[?25h";
const ERASE_DOWN = "\x1b[J";
/**
 * Erases from the cursor's row down, the cursor left at that row's start. Not `\r` + erase-down:
 * tmux (3.3+, `scroll-on-clear`, on by default) takes an erase-down from the screen's top-left
 * cell as clearing the screen and scrolls every row into the scrollback instead, so a frame whose
 * top is the screen's first row (a re-wrap pushed the rows above into the scrollback, or the
 * screen was cleared) would stay there whole. Erasing from the second column, then the row itself,
 * never starts at that cell.
 */
const ERASE_ROWS_DOWN = "\x1b[2G\x1b[J\x1b[2K\r";
const up = (n: number) => (n > 0 ? `\x1b[${n}A` : "");
const down = (n: number) => (n > 0 ? `\x1b[${n}B` : "");

/** Ink hands a frame as its text plus a final newline: the rows, without that last empty one. */
function frameLines(frame: string): string[] {
  const lines = frame.split("\n");
  if (frame.endsWith("\n")) lines.pop();
  return lines;
}

/** Rows the lines take on a terminal `cols` wide: a line wider than that wraps (or was re-wrapped). */
export function rowsAt(lines: string[], cols: number, widthOf: (line: string) => number = width): number {
  let rows = 0;
  for (const line of lines) rows += Math.max(1, Math.ceil(widthOf(line) / Math.max(1, cols)));
  return rows;
}

/**
 * Each line's width, kept from one frame to the next: most rows of a frame are the last frame's
 * (the composer's border, the status line), and a row with a box-drawing character or a `·`
 * misses string-width's ASCII fast path (tens of µs a row, every frame, while an answer streams).
 */
function widthCache(): { of(line: string): number; keep(lines: string[]): void } {
  let known = new Map<string, number>();
  const of = (line: string) => {
    let w = known.get(line);
    if (w === undefined) {
      w = width(line);
      known.set(line, w);
    }
    return w;
  };
  return {
    of,
    /** Only the lines on screen stay known, so the cache never outgrows one frame. */
    keep(lines) {
      const next = new Map<string, number>();
      for (const line of lines) next.set(line, of(line));
      known = next;
    },
  };
}

/**
 * `columns()` is the terminal's width now, read from the terminal itself (an ioctl), not from
 * the last resize event, which comes later (many frames later while the process is busy
 * streaming): frames written in between must still be erased by the rows they take.
 */
export function createFrameWriter(
  sink: FrameSink,
  columns: () => number,
  terminal: { rows?: () => number; reflow?: Reflow } = {},
): FrameWriter {
  const screenRows = terminal.rows ?? (() => 0);
  let lines: string[] = [];
  let last = "";
  // The size the lines were written at; width 0 while nothing is on screen.
  let writtenAt = 0;
  let writtenRows = 0;
  let cursorHidden = false;
  const widths = widthCache();
  /** Where the cursor is parked now (undefined: the row below the frame), and where the UI wants it. */
  let parked: CellPosition | undefined;
  let wanted: CellPosition | undefined;
  /**
   * From the cursor (parked, or on the row below the frame) up to the frame's first row, column
   * 0, counting the rows the frame takes at the width `cols` the terminal has now; everything
   * from there down erased (never the scrollback).
   */
  const eraseAll = (cols: number) => {
    if (lines.length === 0) return "";
    const rowsOf = (line: string) => rowsAt([line], cols, widths.of);
    const rows = parked
      ? rowsUpToTop(parked, lines, cols, rowsOf, terminal.reflow ?? "cell", writtenRows - screenRows())
      : rowsAt(lines, cols, widths.of);
    parked = undefined;
    return `${up(rows)}${ERASE_ROWS_DOWN}`;
  };
  /** From `row` (column 0 unless it was parked) to the caret the UI wants, or below the frame. */
  const settle = (row: number, fromParked: boolean) => {
    const n = lines.length;
    parked = wanted && wanted.y < n ? { ...wanted } : undefined;
    const target = parked ? parked.y : n;
    const move = target < row ? up(row - target) : down(target - row);
    return `${move}${parked ? `\x1b[${parked.x + 1}G` : fromParked ? "\r" : ""}`;
  };

  /**
   * Only what differs; every old line is one row (it fitted the width it was written at). When
   * the frame grows or shrinks, the rows it ends with (composer, status line) are moved with
   * insert / delete line instead of being written again below the rows that changed size.
   */
  const changed = (next: string[], from: number): { out: string; row: number } => {
    const n = lines.length;
    const m = next.length;
    let kept = 0;
    if (n !== m) while (kept < Math.min(n, m) && next[m - 1 - kept] === lines[n - 1 - kept]) kept++;
    // `old` is what each row holds as the writer goes (null: blank); `row` where the cursor is.
    let old: (string | null)[] = lines;
    let row = from;
    let out = "";
    const moveTo = (target: number) => {
      out += target < row ? up(row - target) : down(target - row);
      row = target;
    };
    if (kept > 0 && m > n) {
      // Room below first (newlines scroll at the bottom), then the kept rows pushed down into it.
      moveTo(n);
      out += "\n".repeat(m - n);
      row = m;
      moveTo(n - kept);
      out += `\x1b[${m - n}L`;
      old = [...lines.slice(0, n - kept), ...new Array<null>(m - n).fill(null), ...lines.slice(n - kept)];
    } else if (kept > 0 && m < n) {
      moveTo(m - kept);
      out += `\x1b[${n - m}M`;
      old = [...lines.slice(0, m - kept), ...lines.slice(n - kept)];
    }
    for (let i = 0; i < m; i++) {
      if (next[i] === old[i]) continue;
      moveTo(i);
      out += `${lineEdit(old[i] ?? null, next[i])}\n`;
      row = i + 1;
    }
    if (m < old.length) {
      moveTo(m);
      out += `\r${ERASE_DOWN}`;
    }
    return { out, row };
  };

  const write = (frame: string): boolean => {
    const cols = columns();
    const fitted =
      writtenAt === cols && writtenRows === screenRows() && lines.every((line) => widths.of(line) <= cols);
    if (fitted && frame === last && samePosition(parked, wanted)) return false;
    const from = parked;
    if (fitted && frame === last) {
      sink.write(settle(from ? from.y : lines.length, from !== undefined));
      return true;
    }
    // Moves start at the parked cursor while the size holds; after a resize (the rows on screen
    // re-wrapped, or cut below the cursor) the frame is drawn again from its first row.
    const next = frameLines(frame);
    const drawn = fitted
      ? changed(next, from ? from.y : lines.length)
      : { out: `${eraseAll(cols)}${next.map((line) => `${line}\n`).join("")}`, row: next.length };
    parked = undefined;
    lines = next;
    sink.write(
      `${cursorHidden ? "" : HIDE_CURSOR}${drawn.out}${settle(drawn.row, fitted && from !== undefined)}`,
    );
    cursorHidden = true;
    widths.keep(lines);
    last = frame;
    writtenAt = cols;
    writtenRows = screenRows();
    return true;
  };
  /** Nothing on screen any more: the next frame is drawn whole where the cursor is. */
  const forget = () => {
    lines = [];
    last = "";
    writtenAt = 0;
  };

  return Object.assign(write, {
    clear() {
      const erase = eraseAll(columns());
      if (erase) sink.write(erase);
      forget();
    },
    done() {
      // Below the frame: moved there while the size holds, else the frame is drawn again.
      const cols = columns();
      const fitted = writtenAt === cols && writtenRows === screenRows();
      const back = !parked
        ? ""
        : fitted
          ? `${down(lines.length - parked.y)}\r`
          : `${eraseAll(cols)}${lines.map((line) => `${line}\n`).join("")}`;
      parked = undefined;
      if (back || cursorHidden) sink.write(`${back}${cursorHidden ? SHOW_CURSOR : ""}`);
      forget();
      cursorHidden = false;
    },
    /** Ink wrote the frame itself (after clearing the terminal): take it as what is on screen. */
    sync(frame: string) {
      parked = undefined;
      lines = frameLines(frame);
      widths.keep(lines);
      last = frame;
      writtenAt = columns();
      writtenRows = screenRows();
    },
    // The UI draws its own cursor cell (inverse video) and keeps the terminal's hidden, parked on it.
    setCursorPosition(position: CellPosition | undefined) {
      wanted = position;
    },
    isCursorDirty: () => !samePosition(parked, wanted),
    willRender: (frame: string) => frame !== last || !samePosition(parked, wanted),
  });
}
