// The completion menu under the composer (R-UI-14): `/` commands with their descriptions,
// `@` workspace paths, or Ctrl+R's matching prompts (their matched characters underlined); a
// window of rows around the selection so it never grows past a few lines. Drawn as pre-wrapped rows so the live region counts them when it fits itself below the
// terminal's height (R-UI-13).
import { sanitize, style, truncate } from "./ansi.js";
import type { Menu } from "./completion.js";

const ROWS = 8;
const HISTORY_HINT = "Ctrl+R older · ↑/↓ choose · Enter take · Esc back to the draft";

function underlined(text: string, marks: ReadonlySet<number>): string {
  let out = "";
  for (let i = 0; i < text.length; i++) out += marks.has(i) ? style.underline(text[i]) : text[i];
  return out;
}

/** `path` cut to `n` columns in its middle (`src/…/deep/name.ts`): its start and its file name stay. */
export function middle(path: string, n: number): string {
  if (path.length <= n) return path;
  const tail = Math.max(1, Math.min(path.length - path.lastIndexOf("/", path.length - 2), n - 4));
  const head = Math.max(0, n - 1 - tail);
  return `${path.slice(0, head)}…${path.slice(path.length - tail)}`;
}

/** The menu's rows (items then a key hint), at most `max` of them; the hint is kept last. */
export function menuRows(menu: Menu | null, cols: number, max = ROWS + 1): string[] {
  if (menu?.kind === "history" && menu.items.length === 0 && max >= 2)
    return [style.gray(" no earlier prompt matches"), style.gray(truncate(` ${HISTORY_HINT}`, cols))];
  if (!menu || max < 2 || menu.items.length === 0) return [];
  const window = Math.min(ROWS, max - 1);
  const first = Math.max(0, Math.min(menu.index - Math.floor(window / 2), menu.items.length - window));
  const shown = menu.items.slice(first, first + window);
  // A prompt from history or a path has no description: it gets the whole row (R-UI-28: a path
  // is shown whole, shortened in its middle only when it cannot fit).
  const wide = menu.kind === "history" || menu.kind === "file";
  const longest = Math.max(...shown.map((i) => i.label.length)) + 2;
  const labelWidth = wide
    ? Math.max(8, menu.kind === "file" ? Math.min(longest, cols - 4) : cols - 4)
    : Math.min(menu.kind === "argument" ? 40 : 32, longest);
  const clip = (s: string, n: number) =>
    s.length <= n ? s : menu.kind === "file" ? middle(s, n) : `${s.slice(0, Math.max(0, n - 1))}…`;
  const rows = shown.map((item, i) => {
    const selected = first + i === menu.index;
    const clean = sanitize(item.label);
    const text = clip(clean, labelWidth - 1);
    // Matched characters (Ctrl+R) underlined: it leaves the row's colour and weight alone.
    const label =
      (item.marks && clean === item.label ? underlined(text, item.marks) : text) +
      " ".repeat(Math.max(0, labelWidth - text.length));
    const detail = style.gray(clip(sanitize(item.detail), Math.max(0, cols - labelWidth - 6)));
    const head = `${selected ? "› " : "  "}${label}`;
    return truncate(` ${selected ? style.bold(style.cyan(head)) : head}${detail}`, cols);
  });
  const count = menu.items.length > window ? `${menu.index + 1}/${menu.items.length} · ` : "";
  const hint =
    menu.kind === "history"
      ? `${count}${HISTORY_HINT}`
      : `${count}↑/↓ choose · Tab complete · Enter ${menu.kind === "file" ? "insert" : "run"} · Esc close`;
  rows.push(style.gray(truncate(` ${hint}`, cols)));
  return rows;
}
