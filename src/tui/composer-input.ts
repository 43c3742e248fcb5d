// The composer's input side (R-UI-14): edits with the completion menu kept in step, the kill
// buffer for Ctrl+Y, paste collapsing, the per-workspace history, taking queued follow-ups
// back, and $EDITOR. Keys decide which of these to call (composer-keys.ts).
import type { Key } from "ink";
import { sessionsOf } from "../workspace/session-queries.js";
import { WorkspaceFileIndex } from "../workspace/workspace-files.js";
import { backspace, type Edit, History, insert } from "./composer.js";
import { ClipboardPaste, type ImageInput } from "./clipboard.js";
import { ClipboardStore } from "./clipboard-store.js";
import { type ArgumentSources, argumentMenu } from "./argument-completion.js";
import { applyMenu, atToken, commandMenu, type Menu } from "./completion.js";
import { editInEditor } from "./editor.js";
import { FileMenuSearch } from "./file-menu-search.js";
import { HistorySearch } from "./history-search.js";
import { HistoryStore } from "./history-store.js";
import { Pastes } from "./paste.js";
import type { Cut } from "./readline.js";
import type { Store } from "./store.js";
import type { ItemKind } from "./ui-state.js";
import { EditHistory } from "./undo.js";
import { ComposerVim } from "./composer-vim.js";

/** A listing older than this is refreshed (in the background) when an `@` is typed. */
const FILES_FRESH_MS = 10_000;

export interface ComposerDeps {
  store: Store;
  home: string;
  cwd: string;
  print(kind: ItemKind, text: string): void;
  /** The engine's newest queued follow-up, out of its queue (`Session.takeBackFollowUp`). */
  takeBackFollowUp(): { text: string } | undefined;
  /** What the current model takes in images, checked when Ctrl+V pastes one. */
  imageInput(): ImageInput;
  /** Lists the workspace for `@file` (tests give a smaller cap); the index's own by default. */
  listFiles?: (cwd: string) => Promise<string[]>;
  /** The MCP servers' resources as `<server>:<uri>`, offered in the `@` menu beside files (R-MCP-2). */
  listResources?: () => Promise<string[]>;
}

export class ComposerInput {
  readonly history: History;
  readonly pastes = new Pastes();
  /** Ctrl+V: clipboard images as `@clipboard-N.png`, text as a paste (R-UI-21). */
  readonly clipboard: ClipboardPaste;
  /** Ctrl+R: reverse search through `history` (history-search.ts). */
  readonly search: HistorySearch;
  private killed = "";
  /** Ctrl+_ undo, Ctrl+X Ctrl+_ / Alt+_ redo (R-UI-27). */
  private readonly edits = new EditHistory();
  /** Vim's keys (R-UI-30): its mode is the store's (`vim`, shown in the status line). */
  readonly vim: ComposerVim;
  /** Where Tab after a command finds its argument's choices (set by run.tsx; none: no completion). */
  argumentSources: ArgumentSources | undefined;
  /** Ctrl+X was the last key: Ctrl+E then opens $EDITOR (readline's binding). */
  ctrlXPending = false;
  /** The MCP resources last listed (asked again with each file listing). */
  private resources: readonly string[] = [];
  private resourcesAsked = false;
  /** Listed in the background from the start (R-BIG-3); the menu uses whatever list is there. */
  private readonly files: WorkspaceFileIndex;
  /** Matches `@file` after the key is drawn, cancelled by the next one (file-menu-search.ts). */
  private readonly fileSearch = new FileMenuSearch((menu, text, cursor) => {
    const e = this.edit;
    if (e.text === text && e.cursor === cursor && !this.search.active) this.showMenu(menu);
  });
  /** The last skipped-listing notice printed (none again until the listing changes). */
  private noticed: string | undefined;
  /** Esc closed the menu for this text; it opens again once the text changes. */
  private dismissedFor: string | undefined;

  constructor(private readonly deps: ComposerDeps) {
    this.vim = new ComposerVim({
      store: deps.store,
      edit: () => this.edit,
      set: (e) => this.set(e),
      show: (e) => this.show(e),
      undo: () => this.undo(),
    });
    const saved = new HistoryStore(deps.home, deps.cwd);
    this.history = new History(saved.load(), (text) => saved.add(text));
    this.files = new WorkspaceFileIndex(deps.cwd, () => this.refreshMenu(), deps.listFiles);
    this.files.refresh();
    this.search = new HistorySearch({
      store: deps.store,
      entries: () => this.history.entries,
      recall: (text) => this.recall(text),
      setComposer: (e) => this.set(e),
    });
    this.clipboard = new ClipboardPaste({
      insert: (text) => this.set(insert(this.edit, text)),
      paste: (text) => this.paste(text),
      print: (kind, text) => deps.print(kind, text),
      imageInput: () => deps.imageInput(),
      charBeforeCursor: () => this.edit.text.slice(Math.max(0, this.edit.cursor - 1), this.edit.cursor),
      store: new ClipboardStore({
        home: deps.home,
        cwd: deps.cwd,
        session: () => deps.store.get().status.sessionId,
        sessions: async () => sessionsOf(deps.home, deps.cwd).map((s) => s.id),
      }),
    });
  }

  /** Tools may have made or removed files: list again in the background (every 5 s at most mid-turn). */
  filesMayHaveChanged(turnEnded: boolean): void {
    if ((turnEnded && !this.files.skipped) || this.files.olderThan(5_000)) this.refreshListings();
  }

  get edit(): Edit {
    const s = this.deps.store.get();
    return { text: s.composer, cursor: s.cursor };
  }

  get menu(): Menu | null {
    return this.deps.store.get().menu;
  }

  /** The menu a key acts on: ↑/↓, Tab or Enter first finish an `@file` search for this text. */
  menuFor(key: Key): Menu | null {
    if (key.upArrow || key.downArrow || key.tab || key.return) this.fileSearch.finish();
    return this.menu;
  }

  set(e: Edit): void {
    this.edits.record(this.edit, e);
    this.show(e);
  }

  /** Puts `e` in the composer without making it an undo step. */
  show(e: Edit): void {
    this.deps.store.dispatch({ type: "compose", text: e.text, cursor: e.cursor });
    this.refreshMenu();
  }

  undo(): void {
    const e = this.edits.undo(this.edit);
    if (e) this.show(e);
  }

  redo(): void {
    const e = this.edits.redo(this.edit);
    if (e) this.show(e);
  }

  /** A kill (Ctrl+W/K/U): what it cut is kept for Ctrl+Y. */
  cut(c: Cut): void {
    if (c.killed) this.killed = c.killed;
    this.set(c.edit);
  }

  yank(): void {
    if (this.killed) this.set(insert(this.edit, this.killed));
  }

  /** Backspace as an edit; a paste placeholder right before the cursor goes as one. */
  backspaceEdit(): Edit {
    const e = this.edit;
    const label = this.pastes.placeholderBefore(e.text, e.cursor);
    if (!label) return backspace(e);
    const from = e.cursor - label.length;
    return { text: e.text.slice(0, from) + e.text.slice(e.cursor), cursor: from };
  }

  /** A prompt from history: one saved with a large paste comes back collapsed again. */
  recall(text: string): void {
    const shown = this.pastes.collapse(text);
    this.set({ text: shown, cursor: shown.length });
  }

  /** A bracketed paste goes in at the cursor (collapsed when large); it never sends. */
  paste(text: string): void {
    const next = insert(this.edit, this.pastes.collapse(text));
    if (this.search.active) this.search.setQuery(next);
    else this.set(next);
  }

  /** Up on an empty composer: the newest queued follow-up comes back to be edited. */
  takeBackQueued(): boolean {
    if (this.edit.text !== "" || this.deps.store.get().queue.length === 0) return false;
    const taken = this.deps.takeBackFollowUp();
    if (!taken) return false;
    this.set({ text: taken.text, cursor: taken.text.length });
    return true;
  }

  /**
   * Ctrl+G: the prompt in $EDITOR; the edited text replaces it. Only at an idle prompt: the
   * editor holds the process until it closes, and a running turn's stream would stall meanwhile.
   */
  openEditor(): void {
    if (this.deps.store.get().busy) {
      this.deps.print("info", "Ctrl+G opens $EDITOR at an idle prompt (work is running now)");
      return;
    }
    const result = editInEditor(this.pastes.expand(this.edit.text));
    if (result.ok) this.set({ text: result.text, cursor: result.text.length });
    else this.deps.print("error", result.error);
  }

  // ---- completion menu ------------------------------------------------------------------

  moveMenu(delta: -1 | 1): void {
    const menu = this.menu;
    if (!menu) return;
    const index = (menu.index + delta + menu.items.length) % menu.items.length;
    this.deps.store.dispatch({ type: "menu", menu: { ...menu, index } });
  }

  /** Puts the selected item in; returns it (a command the caller may run at once). */
  acceptMenu(): Menu["items"][number] | undefined {
    const menu = this.menu;
    if (!menu) return undefined;
    const item = menu.items[menu.index];
    const next = applyMenu(this.edit.text, menu);
    this.edits.record(this.edit, next);
    this.deps.store.dispatch({ type: "compose", text: next.text, cursor: next.cursor });
    // A chosen command name leaves the menu shut until more is typed.
    this.dismissedFor = next.text;
    this.refreshMenu();
    return item;
  }

  /** Tab after `/command `: one choice goes in, several open the menu (R-UI-28). */
  completeArgument(): void {
    const { text, cursor } = this.edit;
    const menu = this.argumentSources && argumentMenu(this.argumentSources, text, cursor);
    if (!menu) return;
    if (menu.items.length === 1) this.set(applyMenu(text, menu));
    else this.showMenu(menu);
  }

  dismissMenu(): void {
    this.fileSearch.cancel();
    this.dismissedFor = this.edit.text;
    this.deps.store.dispatch({ type: "menu", menu: null });
  }

  private refreshMenu(): void {
    this.fileSearch.cancel();
    // The history search keeps its own menu of matches while its query is typed.
    if (this.search.active) return;
    const { text, cursor } = this.edit;
    let menu: Menu | undefined;
    if (text !== this.dismissedFor) {
      this.dismissedFor = undefined;
      menu = commandMenu(text, cursor);
      if (!menu && atToken(text, cursor)) {
        const listed = this.files.current();
        const files = listed || this.resources.length ? [...this.resources, ...(listed ?? [])] : undefined;
        if (this.files.olderThan(FILES_FRESH_MS)) this.refreshListings();
        else if (!this.resourcesAsked) this.askResources();
        this.noticeSkipped();
        // The last file menu stays on screen until this text's arrives.
        if (files) this.fileSearch.start(text, cursor, files);
        if (files && this.menu?.kind === "file") return;
      }
    }
    this.showMenu(menu);
  }

  /** The workspace's files and the MCP servers' resources, listed again in the background. */
  private refreshListings(): void {
    this.files.refresh();
    this.askResources();
  }

  /** Asked of the session only once it is open (never from the constructor); the menu shows them next time. */
  private askResources(): void {
    this.resourcesAsked = true;
    Promise.resolve()
      .then(() => this.deps.listResources?.())
      .then((r) => {
        if (!r) return;
        this.resources = r;
        this.refreshMenu();
      })
      .catch(() => undefined);
  }

  /** A listing stopped at its bounds: said once, at the first `@` after it. */
  private noticeSkipped(): void {
    const why = this.files.skipped;
    if (why && why !== this.noticed) this.deps.print("info", why);
    this.noticed = why;
  }

  private showMenu(menu: Menu | undefined): void {
    const old = this.menu;
    // Keep the selection while the same items are offered.
    if (menu && old && old.kind === menu.kind && old.items[old.index]?.value === menu.items[old.index]?.value)
      menu.index = old.index;
    if (menu || old) this.deps.store.dispatch({ type: "menu", menu: menu ?? null });
  }
}
