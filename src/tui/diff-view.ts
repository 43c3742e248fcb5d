// Edits drawn as coloured diffs (R-UI-8, R-UI-11), computed with jsdiff's structuredPatch: removed
// rows red, added rows green, a few rows of context, long diffs cut with a count.
import { structuredPatch } from "diff";
import { count, sanitize, style, truncate } from "./ansi.js";

export interface DiffView {
  rows: string[];
  added: number;
  removed: number;
}

/**
 * The change from `before` to `after` as terminal rows (each cut to `cols`), at most `maxRows`.
 * `startLine`: the file line `before` starts at, for line numbers; null when unknown (an
 * edit_file replacement can be anywhere in the file), so no numbers are shown.
 */
export function diffRows(
  before: string,
  after: string,
  cols: number,
  maxRows: number,
  startLine: number | null = null,
): DiffView {
  const patch = structuredPatch("a", "b", ensureNl(before), ensureNl(after), "", "", { context: 2 });
  const rows: string[] = [];
  let added = 0;
  let removed = 0;
  const first = startLine ?? 1;
  const numWidth =
    startLine === null
      ? 0
      : String(first + Math.max(before.split("\n").length, after.split("\n").length)).length;
  for (const [h, hunk] of patch.hunks.entries()) {
    if (h > 0) rows.push(style.gray(`${" ".repeat(numWidth)}⋯`));
    let oldNo = hunk.oldStart + first - 1;
    let newNo = hunk.newStart + first - 1;
    for (const line of hunk.lines) {
      if (line.startsWith("\\")) continue;
      const sign = line[0];
      const body = sanitize(line.slice(1));
      const no = (n: number) => (numWidth === 0 ? "" : `${String(n).padStart(numWidth)} `);
      if (sign === "-") {
        removed++;
        rows.push(style.red(truncate(`${no(oldNo++)}- ${body}`, cols)));
      } else if (sign === "+") {
        added++;
        rows.push(style.green(truncate(`${no(newNo++)}+ ${body}`, cols)));
      } else {
        oldNo++;
        rows.push(style.gray(truncate(`${no(newNo++)}  ${body}`, cols)));
      }
    }
  }
  if (rows.length > maxRows) {
    const hidden = rows.length - (maxRows - 1);
    return {
      rows: [...rows.slice(0, maxRows - 1), style.gray(`… ${count(hidden, "more diff line")}`)],
      added,
      removed,
    };
  }
  return { rows, added, removed };
}

function ensureNl(text: string): string {
  return text.endsWith("\n") || text === "" ? text : `${text}\n`;
}
