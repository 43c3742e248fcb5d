// The live region below the scrollback, as rows that fit the width (R-UI-13). It is kept
// shorter than the terminal: Ink clears the whole screen (and with it the scrollback) when its
// frame reaches the terminal's height, so every part gets a share of rows - 1 and the
// streaming answer shows only its tail.
import { contextPercent } from "../vocab/context-share.js";
import { sanitize, style, truncate, wrapLines } from "./ansi.js";
import { approvalRows } from "./approval.js";
import { type Caret, composerLayout } from "./composer-view.js";
import { renderMarkdown } from "./markdown.js";
import { pickerRows } from "./picker.js";
import { type SideScroll, sidePanel } from "./side-view.js";
import { menuRows } from "./slash-menu.js";
import { elapsed, phaseText, turnTokens, UNKNOWN_COST } from "./status-text.js";
import { runningAgents, runningRows } from "./tool-view.js";
import { PLAN_CHOICES } from "./plan-flow.js";
import type { UiState } from "./ui-state.js";
import { money } from "../vocab/cost.js";

export { composerBox, composerRows } from "./composer-view.js";

export interface LiveRows {
  /** Everything above the composer. */
  above: string[];
  /** The composer's inner rows (inside its border). */
  composer: string[];
  /** Where the caret is drawn in those rows (R-UI-26). */
  caret: Caret;
  /** The completion menu under the composer (empty when closed). */
  menu: string[];
  status: string;
  /** How far the side panel's finished answer can scroll (null: it fits, or no panel). */
  sideScroll: SideScroll | null;
}

function queueRows(state: UiState, cols: number): string[] {
  if (state.queue.length === 0) return [];
  const shown = state.queue
    .slice(0, 3)
    .map((t) => style.cyan(truncate(`queued: ${sanitize(t).replace(/\n/g, " ⏎ ")}`, cols)));
  if (state.queue.length > 3) shown.push(style.cyan(`… ${state.queue.length - 3} more queued`));
  shown.push(
    style.gray(
      truncate(
        `${state.held ? "queue held after the interrupt: empty Enter sends it" : "empty Enter sends the queue now"} · ↑ edits the last one`,
        cols,
      ),
    ),
  );
  return shown;
}

function progressRow(state: UiState, spinner: string, now: number, cols: number): string[] {
  if (!state.phase) return [];
  const parts = [phaseText(state.phase, now)];
  if (state.turn) {
    parts.push(`turn ${elapsed(now - state.turn.start)}`);
    const tokens = turnTokens(state);
    if (tokens > 0) parts.push(`↓ ${tokens} tokens`);
  }
  parts.push(state.approval ? "Esc deny & interrupt" : "Esc to interrupt");
  return [
    truncate(
      `${style.green(spinner)} ${style.green(parts[0])}${style.gray(` · ${parts.slice(1).join(" · ")}`)}`,
      cols,
    ),
  ];
}

function limitRows(state: UiState, cols: number): string[] {
  if (state.planReview) return wrapLines(style.yellow(PLAN_CHOICES), cols);
  if (state.question) return wrapLines(style.yellow(state.question), cols);
  if (!state.limit) return [];
  const l = state.limit;
  return wrapLines(
    style.yellow(
      `Limit reached (${l.limit} ${l.used}/${l.allowed}): continue? [y]es / [n]o / [yyy] for the rest of this turn`,
    ),
    cols,
  );
}

/** The vim mode first on the status line, so a narrow one never cuts it (R-UI-30). */
function vimMark(state: UiState): string {
  return state.vim ? `${state.vim === "normal" ? "NORMAL" : "INSERT"} · ` : "";
}

export function statusText(state: UiState, cols: number): string {
  const s = state.status;
  // Off is the quiet default; a level in force is always named.
  const thinking = s.thinking && s.thinking !== "off" ? ` · thinking ${s.thinking}` : "";
  const pct = contextPercent(s.lastPrompt, s.contextWindow);
  // Side questions stay out of the ledger, so their cost is shown apart (R-SIDE-4).
  const side = s.sideCost !== 0 ? ` (+ ${money(s.sideCost, UNKNOWN_COST)} side questions)` : "";
  const mode = s.mode ? ` · ${s.mode}` : "";
  const jobs = s.jobs ? ` · ${s.jobs} job${s.jobs === 1 ? "" : "s"} running` : "";
  // R-LSP-4: errors the language servers see in the files this session edited.
  const errors = Object.values(s.lspErrors ?? {}).reduce((a, b) => a + b, 0);
  const lsp = errors > 0 ? ` · ${errors} error${errors === 1 ? "" : "s"} in edited files` : "";
  const agents = runningAgents(state.running);
  return style.gray(
    truncate(
      `${vimMark(state)}${s.model}${thinking} · context ${pct}% · ${s.tokens} tokens · ${money(s.cost, UNKNOWN_COST)}${side}${mode}${jobs}${lsp}${agents} · session ${s.sessionId}`,
      cols,
    ),
  );
}

/**
 * Rows the streaming answer's tail may take, `used` rows being taken by the rest: the region
 * stays within a third of the terminal. A terminal made narrower re-wraps the rows on screen
 * before the program is told, and a region that then no longer fits (terminals differ in where
 * they leave the cursor when re-wrapped rows overflow) leaves rows that can no longer be erased
 * (R-UI-13; at half the height, narrowing 70 → 50 mid-stream still left 7 stale rows in
 * xterm.js and tmux). Finished paragraphs are in the scrollback already; this is the tail.
 */
function streamRows(rows: number, used: number): number {
  return Math.max(3, Math.floor((rows - 1) / 3) - used);
}

/** Every part of the live region, fitted into `rows - 1` rows. */
export function liveRows(state: UiState, cols: number, rows: number, now: number, spinner: string): LiveRows {
  const total = Math.max(4, rows - 1);
  // A statusLine command's line replaces the built-in one, but a mode other than `ask` stays in
  // view (R-UI-24; Claude Code keeps its mode indicator beside a custom status line too).
  const mode = state.status.mode && state.status.mode !== "ask" ? ` · ${state.status.mode}` : "";
  const status =
    state.statusLine !== undefined
      ? truncate(`${vimMark(state)}${state.statusLine}${mode}`, cols)
      : statusText(state, cols);
  const inner = Math.max(4, cols - 4);
  const prompt =
    state.limit || state.planReview || state.question
      ? "answer› "
      : state.searching
        ? "search history› "
        : "› ";
  const { rows: composer, caret } = composerLayout(
    state.composer,
    state.cursor,
    prompt,
    inner,
    Math.max(1, Math.floor(total / 3)),
  );
  // The menu answers the key just typed, so it comes before everything above the composer.
  const menu = menuRows(state.menu, cols, Math.max(0, total - 1 - (composer.length + 2) - 1));
  let room = total - 1 - (composer.length + 2) - menu.length;
  const take = (part: string[]) => {
    const kept = part.slice(0, Math.max(0, room));
    room -= kept.length;
    return kept;
  };
  const progress = take(progressRow(state, spinner, now, cols));
  const limit = take(limitRows(state, cols));
  const approval = state.approval ? take(approvalRows(state.approval, cols, room, now)) : [];
  const picker = state.picker ? take(pickerRows(state.picker, cols, Math.min(room, 14), Date.now())) : [];
  const queue = take(queueRows(state, cols));
  const hint = take(state.hint ? [style.gray(truncate(state.hint, cols))] : []);
  const panel = state.side.open
    ? sidePanel(state, cols, spinner, Math.max(3, Math.floor(room * 0.6)))
    : { rows: [], scroll: null };
  const side = take(panel.rows);
  const running =
    state.approval || state.running.length === 0
      ? []
      : take(state.running.slice(0, 3).flatMap((r) => runningRows(r, cols)));
  let stream: string[] = [];
  const rest = state.live.slice(state.flushed);
  if (!rest.trim() && state.liveReasoning.trim() && room > 0) {
    // Reasoning, dimmed, until the answer starts (R-PROV-10); at most half of the room.
    const rows = wrapLines(sanitize(state.liveReasoning), cols).map((r) => style.dim(r));
    stream = rows.slice(-Math.max(1, Math.floor(room / 2)));
  }
  if (rest.trim() && room > 0) {
    const rendered = renderMarkdown(rest, cols);
    stream = rendered.slice(-Math.min(room, streamRows(rows, total - room)));
  }
  return {
    above: [...stream, ...running, ...side, ...queue, ...progress, ...approval, ...picker, ...limit, ...hint],
    composer,
    caret,
    menu,
    status,
    sideScroll: panel.scroll,
  };
}
