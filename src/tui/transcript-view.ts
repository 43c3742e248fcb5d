// How a committed transcript item is drawn, once, into the scrollback: answers as markdown,
// tool calls as their readable line and output, the rest as coloured lines.
import { sanitize, style, wrapLines } from "./ansi.js";
import { renderMarkdown } from "./markdown.js";
import { outputRows } from "./output-view.js";
import { toolRows } from "./tool-view.js";
import type { Item } from "./ui-state.js";

const PAINT: Partial<Record<Item["kind"], (t: string) => string>> = {
  user: style.cyan,
  error: style.red,
  turn: style.gray,
  retry: style.magenta,
  info: style.gray,
  interrupted: style.yellow,
  output: style.gray,
};

/** Items that open a new paragraph get a blank row above them. */
const SPACED = new Set<Item["kind"]>(["user", "assistant", "tool", "interrupted", "output"]);

export function itemRows(item: Item, cols: number): string[] {
  let rows: string[];
  if (item.kind === "assistant") rows = renderMarkdown(item.text, cols);
  else if (item.kind === "tool" && item.tool) rows = toolRows(item.tool, cols);
  else if (item.kind === "output") {
    // Whole (a tool result is capped before it is kept), into the scrollback to scroll through.
    rows = outputRows(sanitize(item.text.replace(/\n+$/, "")), Math.max(10, cols - 4)).map(
      (r) => `    ${style.gray(r)}`,
    );
  } else {
    const paint = PAINT[item.kind] ?? ((t: string) => t);
    rows = wrapLines(sanitize(item.text), cols).map(paint);
  }
  return SPACED.has(item.kind) && !item.joined ? ["", ...rows] : rows;
}
