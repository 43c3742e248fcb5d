// How the frame writer (frame-writer.ts) turns one row on screen into the next: only the part
// that differs, cut where no escape sequence or non-ASCII character is split (R-UI-22).
import { ESCAPE_SEQUENCE, width } from "./ansi.js";

const ERASE_LINE = "\x1b[2K";

/** The SGR state `text` leaves on (from the default), as one sequence; "" when it leaves none. */
export function colourState(text: string): string {
  const on = new Map<string, string>();
  for (const m of text.matchAll(/\x1b\[([0-9;]*)m/g)) {
    const codes = m[1] === "" ? ["0"] : m[1].split(";");
    for (let i = 0; i < codes.length; i++) {
      const c = Number(codes[i]);
      if (c === 0) on.clear();
      else if (c === 38 || c === 48) {
        // 38;5;n / 38;2;r;g;b (and 48 for the background)
        const take = codes[i + 1] === "2" ? 4 : 2;
        on.set(c === 38 ? "fg" : "bg", codes.slice(i, i + 1 + take).join(";"));
        i += take;
      } else if ((c >= 30 && c <= 37) || (c >= 90 && c <= 97)) on.set("fg", String(c));
      else if (c === 39) on.delete("fg");
      else if ((c >= 40 && c <= 47) || (c >= 100 && c <= 107)) on.set("bg", String(c));
      else if (c === 49) on.delete("bg");
      else if (c === 22) {
        on.delete("1");
        on.delete("2");
      } else if (c >= 23 && c <= 29) on.delete(String(c - 20));
      else on.set(String(c), String(c));
    }
  }
  return on.size === 0 ? "" : `\x1b[${[...on.values()].join(";")}m`;
}

/**
 * What turns the row `old` into `next`, the cursor on that row: only the part between their
 * longest common start and end, when that part keeps its width (a token count ticking), else
 * everything after the common start; each cut where no escape sequence or non-ASCII character
 * is split (so no character joins a wrong neighbour) and written with the colours the start
 * left on; the whole row when they share no start.
 */
export function lineEdit(old: string | null, next: string): string {
  const whole = `\r${ERASE_LINE}${next}`;
  if (old === null) return whole;
  const ascii = (text: string, i: number) => i <= 0 || i >= text.length || text.charCodeAt(i) < 0x80;
  const cut = (i: number) => ascii(next, i - 1) && ascii(next, i);
  let c = 0;
  while (c < next.length && c < old.length && next[c] === old[c]) c++;
  while (c > 0 && !cut(c)) c--;
  for (const m of next.matchAll(ESCAPE_SEQUENCE)) if (m.index < c && c < m.index + m[0].length) c = m.index;
  const start = next.slice(0, c);
  // A link (OSC 8) left open by the start cannot be carried over: the whole row.
  if (c === 0 || start.includes("\x1b]")) return whole;
  const colours = colourState(start);
  const at = `\x1b[${width(start) + 1}G${colours}`;
  // The common end, not reaching into the common start, cut at a clean place in both rows.
  let s = 0;
  while (s < next.length - c && s < old.length - c && next[next.length - 1 - s] === old[old.length - 1 - s])
    s++;
  let e = next.length - s;
  for (const m of next.matchAll(ESCAPE_SEQUENCE))
    if (m.index < e && e < m.index + m[0].length) e = m.index + m[0].length;
  while (e < next.length && !cut(e)) e++;
  const oldEnd = old.length - (next.length - e);
  const middle = next.slice(c, e);
  if (e < next.length && width(middle) === width(old.slice(c, oldEnd)) && !middle.includes("\x1b]")) {
    // The rest of the row stays; the colours the middle leaves on must not reach the next row.
    return `${at}${middle}${colourState(start + middle) ? "\x1b[m" : ""}`;
  }
  // Erasing only when the row got shorter: after a row that fills the width it would take its last cell.
  const erase = width(next) < width(old) ? "\x1b[K" : "";
  return `${at}${next.slice(c)}${erase}`;
}
