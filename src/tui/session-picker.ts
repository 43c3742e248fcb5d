// The session picker (R-UI-17) of `tern --resume` and `/resume` without an id: the workspace's
// sessions newest first, each with its title, age, turns and cost; typing filters them (fzf's
// fuzzy match over title and id), ↑/↓ move, Enter opens, Esc leaves. Pure: state, keys, rows.
import { Fzf, type FzfResultItem } from "fzf";
import { count, sanitize, style, truncate, width } from "./ansi.js";
import { money } from "../vocab/cost.js";

export interface PickerEntry {
  id: string;
  title: string;
  /** ISO-8601 start time. */
  started: string;
  turns: number;
  cost: number | null;
}

export interface PickerState {
  /** Newest first. */
  entries: PickerEntry[];
  query: string;
  /** Index into the filtered list. */
  selected: number;
  /** The session open now (`/resume`), marked in the list. */
  current?: string;
}

/** What a key did: the picker goes on, a session was picked, or the person left. */
export type PickerOutcome = { state: PickerState } | { pick: string } | { leave: true };

/** The keys the picker reads, as Ink reports them. */
export interface PickerKey {
  upArrow: boolean;
  downArrow: boolean;
  pageUp: boolean;
  pageDown: boolean;
  return: boolean;
  escape: boolean;
  backspace: boolean;
  delete: boolean;
  ctrl: boolean;
  meta: boolean;
}

export function newPicker(entries: readonly PickerEntry[], current?: string): PickerState {
  const newest = [...entries].sort((a, b) => b.started.localeCompare(a.started) || b.id.localeCompare(a.id));
  return { entries: newest, query: "", selected: 0, ...(current ? { current } : {}) };
}

/**
 * The last filter's answer: a key (pickerKey) and every frame drawn after it (pickerRows) ask
 * for the same one, and building fzf's index over every session is most of the cost.
 */
let lastFilter: { entries: readonly PickerEntry[]; query: string; shown: PickerEntry[] } | undefined;

/** The entries the query keeps: all, newest first, when it is empty; else best match first. */
export function filtered(state: PickerState): PickerEntry[] {
  const query = state.query.trim();
  if (!query) return state.entries;
  if (lastFilter?.entries === state.entries && lastFilter.query === query) return lastFilter.shown;
  const fzf = new Fzf(state.entries, {
    selector: (e: PickerEntry) => `${e.title} ${e.id}`,
    casing: "case-insensitive",
  });
  const shown = fzf.find(query).map((r: FzfResultItem<PickerEntry>) => r.item);
  lastFilter = { entries: state.entries, query, shown };
  return shown;
}

const PAGE = 5;

export function pickerKey(state: PickerState, input: string, key: PickerKey): PickerOutcome {
  const shown = filtered(state);
  if (key.escape) return { leave: true };
  if (key.return) {
    const entry = shown[Math.min(state.selected, shown.length - 1)];
    return entry ? { pick: entry.id } : { state };
  }
  const move = key.upArrow ? -1 : key.downArrow ? 1 : key.pageUp ? -PAGE : key.pageDown ? PAGE : 0;
  if (move !== 0)
    return { state: { ...state, selected: Math.max(0, Math.min(shown.length - 1, state.selected + move)) } };
  if (key.backspace || key.delete)
    return { state: { ...state, query: state.query.slice(0, -1), selected: 0 } };
  if (key.ctrl && input === "u") return { state: { ...state, query: "", selected: 0 } };
  // Typed text filters; other control keys do nothing here.
  if (!key.ctrl && !key.meta && input && !/[\x00-\x1f\x7f]/.test(input))
    return { state: { ...state, query: state.query + input, selected: 0 } };
  return { state };
}

/** `just now`, `5m ago`, `3h ago`, `2d ago`. */
export function age(started: string, now: number): string {
  const s = Math.max(0, Math.floor((now - Date.parse(started)) / 1000));
  if (!Number.isFinite(s)) return "?";
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)}m ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ago`;
  return `${Math.floor(s / 86_400)}d ago`;
}

/** The picker as at most `maxRows` rows: a head with the query, one row per session around the selected one, the keys. */
export function pickerRows(state: PickerState, cols: number, maxRows: number, now: number): string[] {
  const shown = filtered(state);
  const head = style.yellow(style.bold("Resume a session")) + style.gray(` · type to filter: `) + state.query;
  const keys = style.gray("↑/↓ choose · Enter open · Esc leave");
  const room = Math.max(1, maxRows - 2);
  if (shown.length === 0)
    return [
      head,
      style.gray(state.entries.length === 0 ? "no sessions in this workspace yet" : "no session matches"),
      keys,
    ];
  const at = Math.min(state.selected, shown.length - 1);
  const start = Math.max(0, Math.min(at - Math.floor(room / 2), shown.length - room));
  const rows = shown.slice(start, start + room).map((e, j) => {
    const i = start + j;
    const facts = `${age(e.started, now)} · ${count(e.turns, "turn")} · ${money(e.cost, "$?")}${e.id === state.current ? " · open now" : ""}`;
    const title = sanitize(e.title || "(no prompt yet)").replace(/\s+/g, " ");
    const row = truncate(`${i === at ? "▸" : " "} ${title}`, Math.max(10, cols - facts.length - 3));
    const line = `${row}${" ".repeat(Math.max(1, cols - facts.length - 1 - width(row)))}${facts}`;
    return i === at ? style.bold(line) : line;
  });
  const more =
    shown.length > room ? style.gray(` (${start + 1}-${start + rows.length} of ${shown.length})`) : "";
  return [head + more, ...rows, keys];
}
