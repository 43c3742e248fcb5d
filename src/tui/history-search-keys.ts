// Keys while Ctrl+R's history search is open (history-search.ts): typing edits the query,
// Ctrl+R / ↓ step to older matches, Ctrl+S / ↑ to newer ones, Enter or Tab take the match, Esc
// goes back to the draft. A key that moves the cursor (←/→, Home/End, Ctrl+A/E) takes the match
// and then moves in it, as bash does, so the taken prompt can be edited at once.
import type { Key } from "ink";
import { backspace, insert } from "./composer.js";
import type { ComposerInput } from "./composer-input.js";
import { killToStart, killWordBack } from "./readline.js";

/** True when the search took the key; false lets it through to the composer (after taking the match). */
export function searchKey(c: ComposerInput, input: string, key: Key): boolean {
  const search = c.search;
  if ((key.ctrl && input === "r") || key.downArrow) {
    search.step(1);
  } else if ((key.ctrl && input === "s") || key.upArrow) {
    search.step(-1);
  } else if (key.return || key.tab) {
    search.accept();
  } else if (key.escape) {
    search.cancel();
  } else if (
    key.leftArrow ||
    key.rightArrow ||
    key.home ||
    key.end ||
    (key.ctrl && (input === "a" || input === "e"))
  ) {
    search.accept();
    return false;
  } else if (key.backspace || key.delete) {
    search.setQuery(backspace(c.edit));
  } else if (key.ctrl && input === "w") {
    search.setQuery(killWordBack(c.edit).edit);
  } else if (key.ctrl && input === "u") {
    search.setQuery(killToStart(c.edit).edit);
  } else if (input && !key.ctrl && !key.meta) {
    search.setQuery(insert(c.edit, input));
  }
  return true;
}
