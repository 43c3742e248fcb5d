// The one picker of the UI (R-UI-28): a list to choose from with a fuzzy filter as you type (fzf's
// matcher), ↑/↓ and PgUp/PgDn to move, Enter to take, Esc to leave; the current entry marked.
// `/resume` (sessions), `/model` (the catalogue), `/rewind` and Esc Esc (earlier prompts, then
// what to restore) fill it with their entries (session-picker.ts, model-picker.ts,
// rewind-picker.ts); picker-flow.ts acts on the one taken. Pure: state, keys, rows.
import { Fzf, type FzfResultItem } from "fzf";
import { sanitize, style, truncate, width } from "./ansi.js";

/** What the picker is choosing; picker-flow.ts does what the choice means. */
export type PickerPurpose =
  | "resume"
  | "model"
  | "rewind"
  | "rewind-how"
  | "rewind-force"
  | "agents"
  | "mcp"
  | "theme";

export interface PickerItem {
  id: string;
  /** The left-hand text (a title, a model id, a prompt). */
  title: string;
  /** The right-hand facts (age and cost, window and price), given the time of drawing. */
  facts(now: number): string;
  /** What the filter matches; the title when absent. */
  search?: string;
}

export interface PickerState {
  purpose: PickerPurpose;
  heading: string;
  /** What Enter does, for the keys row (`open`, `switch`, `rewind`). */
  verb: string;
  /** Said when there is nothing to pick at all. */
  empty: string;
  entries: PickerItem[];
  query: string;
  /** Index into the filtered list. */
  selected: number;
  /** The entry in force now (the open session, the current model), marked in the list. */
  current?: string;
  /** Anything the purpose needs to act on the choice (the turn chosen before `rewind-how`). */
  context?: number;
}

/** What a key did: the picker goes on, an entry was picked, or the person left. */
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

/**
 * The last filter's answer: a key (pickerKey) and every frame drawn after it (pickerRows) ask
 * for the same one, and building fzf's index over every entry is most of the cost.
 */
let lastFilter: { entries: readonly PickerItem[]; query: string; shown: PickerItem[] } | undefined;

const titleOf = (r: FzfResultItem<PickerItem>): number => (r.item.search ?? r.item.title).length;

/** Where each entry's group (the part of its title before the first `/`) first appears in the list. */
function groupRanks(entries: readonly PickerItem[]): Map<PickerItem, number> {
  const first = new Map<string, number>();
  const ranks = new Map<PickerItem, number>();
  entries.forEach((e, i) => {
    const group = e.title.split("/")[0];
    if (!first.has(group)) first.set(group, i);
    ranks.set(e, first.get(group) ?? i);
  });
  return ranks;
}

/** The entries the query keeps: all, in order, when it is empty; else best match first. */
export function filtered(state: PickerState): PickerItem[] {
  const query = state.query.trim();
  if (!query) return state.entries;
  if (lastFilter?.entries === state.entries && lastFilter.query === query) return lastFilter.shown;
  const ranks = groupRanks(state.entries);
  const rank = (r: FzfResultItem<PickerItem>) => ranks.get(r.item) ?? 0;
  const fzf = new Fzf(state.entries, {
    selector: (e: PickerItem) => e.search ?? e.title,
    casing: "case-insensitive",
    // Equal matches keep the list's groups in order (a model list: the providers as listed), and
    // within one the shorter entry first, so `sonnet-4-5` picks the alias before the dated ids.
    tiebreakers: [
      (a: FzfResultItem<PickerItem>, b: FzfResultItem<PickerItem>) =>
        rank(a) - rank(b) || titleOf(a) - titleOf(b),
    ],
  });
  const shown = fzf.find(query).map((r: FzfResultItem<PickerItem>) => r.item);
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
    return { state: { ...state, query: [...state.query].slice(0, -1).join(""), selected: 0 } };
  if (key.ctrl && input === "u") return { state: { ...state, query: "", selected: 0 } };
  // Typed text filters; other control keys do nothing here.
  if (!key.ctrl && !key.meta && input && !/[\x00-\x1f\x7f]/.test(input))
    return { state: { ...state, query: state.query + input, selected: 0 } };
  return { state };
}

/** The picker as at most `maxRows` rows: a head with the query, one row per entry around the selected one, the keys. */
export function pickerRows(state: PickerState, cols: number, maxRows: number, now: number): string[] {
  const shown = filtered(state);
  const head = style.yellow(style.bold(state.heading)) + style.gray(" · type to filter: ") + state.query;
  const keys = style.gray(`↑/↓ choose · Enter ${state.verb} · Esc leave`);
  const room = Math.max(1, maxRows - 2);
  if (shown.length === 0)
    return [head, style.gray(state.entries.length === 0 ? state.empty : "nothing matches"), keys];
  const at = Math.min(state.selected, shown.length - 1);
  const start = Math.max(0, Math.min(at - Math.floor(room / 2), shown.length - room));
  const rows = shown.slice(start, start + room).map((e, j) => {
    const i = start + j;
    const mark = i === at ? "▸" : e.id === state.current ? "●" : " ";
    const title = sanitize(e.title).replace(/\s+/g, " ");
    // Both whole when they fit. Else the facts get at most a third of the row and the title, which
    // tells entries apart, the rest; the facts then take what the title left, none below 8 columns.
    const full = `${mark} ${title}`;
    const allFacts = e.facts(now);
    const avail = cols - 1;
    const factsShare = Math.min(width(allFacts), Math.floor(avail / 3));
    const row =
      width(full) + 2 + width(allFacts) <= avail
        ? full
        : truncate(full, Math.max(10, avail - 2 - factsShare));
    const left = avail - width(row) - 2;
    const facts = left >= 8 || width(allFacts) <= left ? truncate(allFacts, left) : "";
    const line = facts ? `${row}${" ".repeat(avail - width(row) - width(facts))}${facts}` : row;
    return i === at ? style.bold(line) : line;
  });
  const more =
    shown.length > room ? style.gray(` (${start + 1}-${start + rows.length} of ${shown.length})`) : "";
  return [head + more, ...rows, keys];
}
