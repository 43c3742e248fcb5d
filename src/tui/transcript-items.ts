// A transcript item, added to the UI state: every finished thing the scrollback shows goes here.
import { stripControlSequences } from "../engine/terminal-text.js";
import type { ToolRun } from "./tool-view.js";
import type { ItemKind, UiState } from "./ui-state.js";

/** §10: text from outside never drives the terminal; control sequences go before it is stored. */
export function print(state: UiState, kind: ItemKind, raw: string, tool?: ToolRun): UiState {
  const text = stripControlSequences(raw);
  const item = tool
    ? {
        id: state.nextId,
        kind,
        text,
        tool: {
          ...tool,
          arguments: stripControlSequences(tool.arguments),
          content: tool.content === undefined ? undefined : stripControlSequences(tool.content),
        },
      }
    : { id: state.nextId, kind, text };
  return { ...state, items: [...state.items, item], nextId: state.nextId + 1 };
}
