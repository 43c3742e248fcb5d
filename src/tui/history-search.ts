// Ctrl+R: reverse search through the workspace's prompt history (R-UI-21), as in bash and
// Claude Code. While it is open the composer holds the query and the menu under it the
// matching prompts, newest first; Ctrl+R (or ↓) steps to older matches, ↑ to newer ones,
// Enter or Tab takes the selected prompt into the composer, Esc (or Ctrl+C) leaves and puts
// the draft back. Matching is fzf's fuzzy algorithm; prompts holding the query as typed come
// before looser matches, so a word typed whole finds what bash would find.
import { Fzf } from "fzf";
import type { Edit } from "./composer.js";
import type { Menu, MenuItem } from "./completion.js";
import type { Store } from "./store.js";

export interface HistorySearchDeps {
  store: Store;
  /** Earlier prompts of this workspace, oldest first. */
  entries(): readonly string[];
  /** Puts a prompt into the composer (a saved large paste comes back collapsed). */
  recall(text: string): void;
  /** Sets the composer's text and cursor. */
  setComposer(e: Edit): void;
}

/** A menu row holds one line: a prompt's line breaks are drawn as ⏎. */
const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ⏎ ");

export interface HistoryMatch {
  text: string;
  /** The prompt on one line, as the menu draws it. */
  label: string;
  /** Indexes into `label` of the characters the query matched. */
  marks: ReadonlySet<number>;
}

type Entry = { text: string; label: string };

/**
 * The prompts of one search, newest first, each once; fzf's index over them is built once when
 * the search opens (building it is most of the cost), not per keystroke.
 */
export class HistoryMatcher {
  private readonly newestFirst: Entry[];
  private readonly fzf: Fzf<Entry[]>;

  constructor(entries: readonly string[]) {
    this.newestFirst = [...new Set([...entries].reverse())].map((text) => ({ text, label: oneLine(text) }));
    this.fzf = new Fzf<Entry[]>(this.newestFirst, {
      selector: (e: Entry) => e.label,
      sort: false,
      casing: "smart-case",
    });
  }

  /** Prompts matching `query`, newest first; exact (substring) matches before fuzzy ones. */
  matches(query: string): HistoryMatch[] {
    if (!query) return this.newestFirst.map((e) => ({ ...e, marks: new Set<number>() }));
    const found: HistoryMatch[] = this.fzf
      .find(query)
      .map((r: { item: Entry; positions: Set<number> }) => ({ ...r.item, marks: r.positions }));
    // fzf's smart case: a query with a capital letter matches case-sensitively.
    const exact = query === query.toLowerCase();
    const holds = (m: HistoryMatch) =>
      exact ? m.label.toLowerCase().includes(query) : m.label.includes(query);
    return [...found.filter(holds), ...found.filter((m) => !holds(m))];
  }
}

export function historyMatches(entries: readonly string[], query: string): HistoryMatch[] {
  return new HistoryMatcher(entries).matches(query);
}

export class HistorySearch {
  /** The composer as it was when the search opened; undefined while no search is open. */
  private draft: Edit | undefined;
  private matcher: HistoryMatcher | undefined;

  constructor(private readonly deps: HistorySearchDeps) {}

  get active(): boolean {
    return this.draft !== undefined;
  }

  /** Ctrl+R at the composer: opens the search with an empty query (every prompt, newest first). */
  open(current: Edit): void {
    this.draft = current;
    this.matcher = new HistoryMatcher(this.deps.entries());
    this.deps.store.dispatch({ type: "searching", on: true });
    this.setQuery({ text: "", cursor: 0 });
  }

  /** The query was edited: the matches follow, the newest selected. */
  setQuery(query: Edit): void {
    this.deps.setComposer(query);
    const items: MenuItem[] = (this.matcher ?? new HistoryMatcher(this.deps.entries()))
      .matches(query.text)
      .map((m) => ({
        label: m.label,
        detail: "",
        value: m.text,
        marks: m.marks,
      }));
    const menu: Menu = { kind: "history", items, index: 0, start: 0, end: 0 };
    this.deps.store.dispatch({ type: "menu", menu });
  }

  /** +1 older, -1 newer; stays at the ends (as bash does). */
  step(delta: -1 | 1): void {
    const menu = this.deps.store.get().menu;
    if (!menu || menu.items.length === 0) return;
    const index = Math.max(0, Math.min(menu.items.length - 1, menu.index + delta));
    this.deps.store.dispatch({ type: "menu", menu: { ...menu, index } });
  }

  /** Enter: the selected prompt replaces the composer (not sent); with no match the draft stays. */
  accept(): void {
    const menu = this.deps.store.get().menu;
    const chosen = menu?.items[menu.index]?.value;
    const draft = this.close();
    if (chosen !== undefined) this.deps.recall(chosen);
    else if (draft) this.deps.setComposer(draft);
  }

  /** Esc: the composer as it was before Ctrl+R. */
  cancel(): void {
    const draft = this.close();
    if (draft) this.deps.setComposer(draft);
  }

  private close(): Edit | undefined {
    const draft = this.draft;
    this.draft = undefined;
    this.matcher = undefined;
    this.deps.store.dispatch({ type: "menu", menu: null });
    this.deps.store.dispatch({ type: "searching", on: false });
    return draft;
  }
}
