// The composer's vim keys (R-UI-30) between the keys and the pure normal mode (vim.ts): the
// mode lives in the store (`vim`, drawn first on the status line); the count, operator and
// register here. Keys typed quickly arrive as one chunk and are played one by one.
import type { Key } from "ink";
import { type Edit, insert, left } from "./composer.js";
import type { Store } from "./store.js";
import { type VimState, vimKey, vimStart } from "./vim.js";

export interface ComposerVimDeps {
  store: Store;
  edit(): Edit;
  /** An edit that is an undo step. */
  set(e: Edit): void;
  /** An edit that is not (the caret moved back on Esc). */
  show(e: Edit): void;
  undo(): void;
}

export class ComposerVim {
  private vim: VimState = vimStart();

  constructor(private readonly deps: ComposerVimDeps) {}

  /** `/vim` and `ui.vim`: vim keys on (in insert mode, as vim starts a prompt) or off. */
  set(on: boolean): void {
    this.vim = vimStart();
    this.deps.store.dispatch({ type: "vim", mode: on ? "insert" : undefined });
  }

  /** Esc in vim's insert mode: normal mode, the caret back onto the last character typed. */
  escape(): boolean {
    if (this.deps.store.get().vim !== "insert") return false;
    this.deps.store.dispatch({ type: "vim", mode: "normal" });
    const e = this.deps.edit();
    if (e.cursor > 0 && e.text[e.cursor - 1] !== "\n") this.deps.show(left(e));
    return true;
  }

  /** A key in vim's normal mode; false when it is not one (arrows, Ctrl keys go on as usual). */
  normalKey(input: string, key: Key): { submit?: boolean } | false {
    if (this.deps.store.get().vim !== "normal") return false;
    if (!key.return && !key.escape && (key.ctrl || key.meta || !input || /[\x00-\x1f]/.test(input)))
      return false;
    // Keys typed quickly arrive as one text ("0w"): each character is a key of its own.
    const keys = key.return || key.escape ? [input] : [...input];
    let submit = false;
    for (const [i, k] of keys.entries()) {
      const out = vimKey({ ...this.vim, mode: "normal" }, this.deps.edit(), k, key);
      this.vim = out.state;
      if (out.undo) this.deps.undo();
      if (out.edit) this.deps.set(out.edit);
      submit ||= out.submit === true;
      if (out.state.mode !== "normal") {
        // An insert key: the rest of the chunk is text typed in insert mode.
        this.deps.store.dispatch({ type: "vim", mode: out.state.mode });
        const rest = keys.slice(i + 1).join("");
        if (rest) this.deps.set(insert(this.deps.edit(), rest));
        break;
      }
    }
    // A prompt sent from normal mode: the next one starts in insert mode.
    if (submit) this.deps.store.dispatch({ type: "vim", mode: "insert" });
    return { submit };
  }
}
