// How Ink turns a frame's layout into text, made cheaper for the rows the UI gives it whole.
// Ink's `Output.get()` puts every character of every write into a grid of styled cells
// (`@alcalzone/ansi-tokenize`) and encodes each row again, every frame: ~30% of the UI's CPU
// per streamed token (R-UI-22), spent re-deriving rows that the UI had already drawn as text
// (live-view.ts hands Ink pre-wrapped, pre-coloured rows). Two shortcuts, each giving the row
// Ink would (the same characters in the same cells and colours):
// - a row only one write covers, from column 0 and with no clip, is that write's line as it is,
//   through the write's transformers (Ink's row is that line re-encoded, trailing blanks
//   trimmed);
// - the other rows (the composer's border beside its text) go through Ink's own `get()`, with
//   the cells of the last frame's lines carried over (a line's cells are a pure function of it;
//   only one frame's lines are kept, so nothing grows over a session).
// The build puts this class where Ink's renderer imports its Output (scripts/build-plugins.mjs,
// `inkOutput`); Ink's own class is owned in ink-output-grid.ts, so nothing reaches Ink's build
// files by path. Ink 6.8 is the last for Node 20.
import { type Operation, OutputGrid } from "./ink-output-grid.js";

type Get = OutputGrid["get"];
const gridGet: Get = OutputGrid.prototype.get;
/** The last frame's cells by line, carried to the next frame's slow rows. */
let previous = new Map<string, unknown>();

/** Ink's own get(), with the last frame's cells carried over. */
function slowGet(output: OutputGrid): ReturnType<Get> {
  const caches = output.caches as unknown as { getStyledChars(line: string): unknown };
  const own = caches.getStyledChars.bind(caches);
  const carried = previous;
  const used = new Map<string, unknown>();
  caches.getStyledChars = (line) => {
    let cells = used.get(line);
    if (cells === undefined) {
      cells = carried.get(line) ?? own(line);
      used.set(line, cells);
    }
    return cells;
  };
  try {
    return gridGet.call(output);
  } finally {
    previous = used;
  }
}

export default class TernOutput extends OutputGrid {
  override get(): ReturnType<Get> {
    const { width, height, operations } = this;
    const writes: Extract<Operation, { type: "write" }>[] = [];
    for (const op of operations) {
      // A clip (overflow: hidden) or a write above the top: Ink's way, whole.
      if (op.type !== "write" || op.y < 0) return slowGet(this);
      writes.push(op);
    }
    const covering = new Array<number>(height).fill(0);
    const line = new Array<string | undefined>(height);
    // Each write's lines, split once: the checks below read them again.
    const linesOf = new Map<Operation, string[]>();
    for (const op of writes) {
      const lines = op.text.split("\n");
      linesOf.set(op, lines);
      for (let i = 0; i < lines.length && op.y + i < height; i++) {
        covering[op.y + i]++;
        // As Ink does: each line through the write's transformers (a <Text>'s colour props).
        let text = lines[i];
        if (op.x === 0) for (const transform of op.transformers) text = transform(text, i);
        line[op.y + i] = op.x === 0 ? text : undefined;
      }
    }
    const whole = (row: number) => covering[row] === 1 && line[row] !== undefined;
    const rowsOf = (op: (typeof writes)[number]) => (linesOf.get(op) as string[]).length;
    const mixed = writes.filter((op) => {
      const rows = rowsOf(op);
      for (let r = op.y; r < op.y + rows && r < height; r++) if (!whole(r)) return true;
      return false;
    });
    // Ink's grid only as tall as the rows it composes (the composer's few), not the whole frame.
    let inkRows: string[] = [];
    let top = 0;
    if (mixed.length > 0) {
      top = Math.min(...mixed.map((op) => op.y));
      const bottom = Math.max(...mixed.map((op) => op.y + rowsOf(op)));
      const part = new OutputGrid({ width, height: Math.min(height, bottom) - top });
      part.operations.push(...mixed.map((op) => ({ ...op, y: op.y - top })));
      inkRows = slowGet(part).output.split("\n");
    }
    const rows: string[] = [];
    for (let r = 0; r < height; r++)
      rows.push(whole(r) ? (line[r] as string).trimEnd() : covering[r] === 0 ? "" : (inkRows[r - top] ?? ""));
    return { output: rows.join("\n"), height };
  }
}
