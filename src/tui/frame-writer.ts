// The live region's writer: what Ink calls to put a frame on the terminal (its `log`), in place
// of Ink's own, which erases and rewrites the whole region every frame (~440 bytes per streamed
// character). This one keeps the last frame's lines and rewrites only the lines that changed,
// moving over the rest (R-UI-22). The cursor rests on the row below the frame, as with Ink's.
//
// Resize (R-UI-13): a terminal that gets narrower re-wraps the rows on screen, so the frame takes
// more rows than were written, and erasing it by the count written leaves its top rows (the
// progress row, the composer's border) in the scrollback. The writer reads the terminal's width
// at every write and erases by the rows the frame takes at that width. (A terminal that shrinks
// while a frame is still in the pipe draws that frame's erase against rows it has re-wrapped
// since: a race no program can win. Keeping the cursor at the region's top instead would not
// help: xterm.js moves the cursor down by the rows a re-wrap adds below it.)
import { width } from "./ansi.js";

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
const ERASE_LINE = "\x1b[2K";
const ERASE_DOWN = "\x1b[J";
const up = (n: number) => (n > 0 ? `\x1b[${n}A` : "");
const down = (n: number) => (n > 0 ? `\x1b[${n}B` : "");

/** Ink hands a frame as its text plus a final newline: the rows, without that last empty one. */
function frameLines(frame: string): string[] {
  const lines = frame.split("\n");
  if (frame.endsWith("\n")) lines.pop();
  return lines;
}

/** Rows the lines take on a terminal `cols` wide: a line wider than that wraps (or was re-wrapped). */
export function rowsAt(lines: string[], cols: number): number {
  let rows = 0;
  for (const line of lines) rows += Math.max(1, Math.ceil(width(line) / Math.max(1, cols)));
  return rows;
}

/**
 * `columns()` is the terminal's width now, read from the terminal itself (an ioctl), not from
 * the last resize event, which comes later (many frames later while the process is busy
 * streaming): frames written in between must still be erased by the rows they take.
 */
export function createFrameWriter(sink: FrameSink, columns: () => number): FrameWriter {
  let lines: string[] = [];
  let last = "";
  // The width the lines were written at; 0 while nothing is on screen.
  let writtenAt = 0;
  let cursorHidden = false;

  /** From the row below the frame back to its first row, erasing everything below (never the scrollback). */
  const eraseAll = (cols: number) => (lines.length === 0 ? "" : `${up(rowsAt(lines, cols))}\r${ERASE_DOWN}`);

  /** Only the lines that differ; every old line is one row (it fitted the width it was written at). */
  const changed = (next: string[]): string => {
    let first = 0;
    while (first < next.length && first < lines.length && next[first] === lines[first]) first++;
    let out = `${up(lines.length - first)}\r`;
    let skipped = 0;
    for (let i = first; i < next.length; i++) {
      if (i < lines.length && next[i] === lines[i]) {
        skipped++;
        continue;
      }
      // Erase first, then write: erasing after a row that fills the width would take its last cell.
      out += `${down(skipped)}${ERASE_LINE}${next[i]}\n`;
      skipped = 0;
    }
    // Past unchanged rows to the row below the frame, then off with the old frame's extra rows.
    out += down(skipped);
    if (next.length < lines.length) out += ERASE_DOWN;
    return out;
  };

  const write = (frame: string): boolean => {
    if (frame === last) return false;
    const next = frameLines(frame);
    const cols = columns();
    const fitted = writtenAt === cols && lines.every((line) => width(line) <= cols);
    const body = fitted ? changed(next) : `${eraseAll(cols)}${next.map((line) => `${line}\n`).join("")}`;
    sink.write(`${cursorHidden ? "" : HIDE_CURSOR}${body}`);
    cursorHidden = true;
    lines = next;
    last = frame;
    writtenAt = cols;
    return true;
  };

  return Object.assign(write, {
    clear() {
      const erase = eraseAll(columns());
      if (erase) sink.write(erase);
      lines = [];
      last = "";
      writtenAt = 0;
    },
    done() {
      if (cursorHidden) sink.write(SHOW_CURSOR);
      lines = [];
      last = "";
      writtenAt = 0;
      cursorHidden = false;
    },
    /** Ink wrote the frame itself (after clearing the terminal): take it as what is on screen. */
    sync(frame: string) {
      lines = frameLines(frame);
      last = frame;
      writtenAt = columns();
    },
    // The UI draws its own cursor cell (inverse video) and keeps the terminal's hidden.
    setCursorPosition() {},
    isCursorDirty: () => false,
    willRender: (frame: string) => frame !== last,
  });
}
