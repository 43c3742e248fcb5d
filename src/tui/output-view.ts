// What a person sees of a tool's output (R-UI-18): the note a capped output carries for the
// model (how to read the rest) becomes one line saying how much was not kept, and the counts
// shown are of real lines, the elided middle included, never of wrapped rows.
import { stripControlSequences } from "../workspace/terminal-text.js";
import { count, style, wrapLines } from "./ansi.js";

/** The cut a capped output carries (tools/output-limit.ts, tools/builtin/output-cap.ts). */
const ELIDED = /\n… \[(\d+) characters elided;[^\]]*?(?:; the elided part is (\d+) lines)?\] …\n/;

/** An output line as shown, and how many lines of the real output it stands for. */
interface ShownLine {
  text: string;
  weight: number;
}

export function outputLines(text: string): ShownLine[] {
  const plain = (part: string) => part.split("\n").map((line) => ({ text: line, weight: 1 }));
  const m = ELIDED.exec(text);
  if (!m) return plain(text);
  const lines = m[2] === undefined ? undefined : Number(m[2]);
  const note = style.gray(
    lines === undefined
      ? `… ${count(Number(m[1]), "character")} not kept …`
      : `… ${count(lines, "line")} not kept (${count(Number(m[1]), "character")}) …`,
  );
  return [
    ...plain(text.slice(0, m.index)),
    { text: note, weight: lines ?? 1 },
    ...plain(text.slice(m.index + m[0].length)),
  ];
}

/** The whole output as rows (Ctrl+O): every kept line, wrapped, the cut as one line. */
export function outputRows(text: string, cols: number): string[] {
  return outputLines(text).flatMap((line) => wrapLines(line.text, cols));
}

/** The last `rows` rows of whole lines, with the real count of the lines above them. */
export function outputTail(text: string, cols: number, rows: number): string[] {
  const lines = outputLines(text);
  const shown: string[] = [];
  let above = lines.length;
  while (above > 0) {
    const wrapped = wrapLines(lines[above - 1].text, cols);
    if (shown.length + wrapped.length > rows) {
      // A last line taller than the room shows its own end.
      if (shown.length === 0) {
        shown.push(...wrapped.slice(-rows));
        above--;
      }
      break;
    }
    shown.unshift(...wrapped);
    above--;
  }
  const hidden = lines.slice(0, above).reduce((n, line) => n + line.weight, 0);
  return hidden > 0 ? [`… ${count(hidden, "earlier line")} · Ctrl+O shows all`, ...shown] : shown;
}

/**
 * A live output tail as a terminal would show it: a line a progress bar redraws with \r is the
 * text after its last \r; then, as all outside text, no control sequences (§10).
 */
export function liveTail(tail: string): string {
  return stripControlSequences(
    tail
      .split("\n")
      .map((line) => line.replace(/\r+$/, "").split("\r").at(-1))
      .join("\n"),
  );
}
