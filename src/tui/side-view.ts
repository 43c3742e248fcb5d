// The /btw side panel as rows (R-SIDE-5): the question, then the answer, then the keys. While
// the answer streams its newest rows show; a finished answer is read from the top and, when it
// is taller than the panel, scrolls with ↑/↓ and PgUp/PgDn (its rows never go to the
// scrollback: side answers stay out of the transcript, R-SIDE-4).
import { sanitize, style, truncate, wrapLines } from "./ansi.js";
import { renderMarkdown } from "./markdown.js";
import type { UiState } from "./ui-state.js";

/** How far the finished answer drawn can scroll: the keys clamp to this (see last-frame.ts). */
export interface SideScroll {
  /** The largest useful `side.scroll`: the answer's last row at the panel's bottom. */
  max: number;
  /** Rows a PgUp/PgDn moves. */
  page: number;
}

export interface SidePanel {
  rows: string[];
  /** Set when a finished answer is taller than the panel. */
  scroll: SideScroll | null;
}

const NONE: SidePanel = { rows: [], scroll: null };

export function sidePanel(state: UiState, cols: number, spinner: string, max: number): SidePanel {
  const side = state.side;
  const pending = side.pending;
  const shown = pending ?? side.thread[side.index];
  if (!shown || max < 3) return NONE;
  const position = pending ? "" : ` (${side.index + 1}/${side.thread.length})`;
  let body: string[];
  if (pending?.error)
    body = wrapLines(style.red(`side question failed: ${sanitize(pending.error)}`), cols - 2);
  else if (pending && !pending.text)
    body = [`${spinner} ${pending.reasoning ? "Thinking" : "Waiting for the model"}`];
  else body = renderMarkdown(pending ? pending.text : (shown as { answer: string }).answer, cols - 2);
  const head = truncate(style.blue(`btw: ${sanitize(shown.question)}${position}`), cols);
  const foot = style.gray(
    truncate("Esc/Enter/Space close · ←/→ earlier answers · x clear thread · Ctrl+C cancel", cols),
  );
  const room = Math.max(1, max - 2);
  let scroll: SideScroll | null = null;
  if (body.length > room && pending) {
    // While it streams the newest rows matter.
    body = [style.gray(`… ${body.length - room + 1} rows above`), ...body.slice(-(room - 1))];
  } else if (body.length > room) {
    // A finished answer is read from the top, a window at a time, with where it is and how to move.
    const window = Math.max(1, room - 1);
    const last = body.length - window;
    const start = Math.max(0, Math.min(side.scroll, last));
    const rows = body.slice(start, start + window);
    const where = `rows ${start + 1}-${start + rows.length} of ${body.length} · ↑/↓ PgUp/PgDn scroll`;
    body = [...rows, style.gray(truncate(where, cols - 2))];
    scroll = { max: last, page: Math.max(1, window - 1) };
  }
  return { rows: [head, ...body.map((r) => `  ${r}`), foot], scroll };
}
