// Transcript items made from engine events: a committed line, cleaned of control sequences
// first (SPEC §10), and the one line a tool the provider ran itself leaves. Apart from
// event-reducer.ts, which keeps within the size rule so.
import { stripControlSequences } from "../workspace/terminal-text.js";
import type { ToolRun } from "./tool-view.js";
import type { Item, ItemKind, UiState } from "./ui-state.js";

/** What an item may carry beside its text (ui-state.ts `Item`). */
export interface ItemParts {
  tool?: ToolRun;
  joined?: boolean;
}

/** §10: text from outside never drives the terminal; control sequences go before it is stored. */
export function print(state: UiState, kind: ItemKind, raw: string, parts: ItemParts = {}): UiState {
  const { tool, joined } = parts;
  const item: Item = { id: state.nextId, kind, text: stripControlSequences(raw) };
  if (tool)
    item.tool = {
      ...tool,
      arguments: stripControlSequences(tool.arguments),
      content: tool.content === undefined ? undefined : stripControlSequences(tool.content),
    };
  if (joined) item.joined = true;
  return { ...state, items: [...state.items, item], nextId: state.nextId + 1 };
}

/** A search or other tool the provider ran itself (R-PROV-11): one line once it is done. */
export function hostedToolLine(event: { name: string; detail: string }): string {
  const detail = stripControlSequences(event.detail);
  return `⌕ ${event.name} (run by the provider)${detail ? ` ${JSON.stringify(detail)}` : ""}`;
}
