// How an `@path` attachment reads in the prompt (R-WF-4): a labelled block per file (with its
// line range) or folder listing, cut like a tool result (head and tail kept, the read hint of
// R-TOOL-6 in the middle). Pure text; prompt-input.ts does the reading.
import { codeFence } from "../vocab/code-fence.js";

/** `@src/a.ts:40-80` → path and range; a bare `@src/a.ts` has none. */
export function splitLineRange(token: string): { path: string; from?: number; to?: number } {
  const m = /^(.*?):(\d+)(?:-(\d+))?$/.exec(token);
  if (!m?.[1]) return { path: token };
  const from = Number(m[2]);
  const to = m[3] === undefined ? from : Number(m[3]);
  if (from < 1 || to < from) return { path: token };
  return { path: m[1], from, to };
}

function elide(text: string, max: number, hint: string): string {
  if (text.length <= max) return text;
  const marker = (n: number) => `\n… [${n} characters elided; ${hint}] …\n`;
  const room = Math.max(0, max - marker(text.length).length);
  const head = text.slice(0, Math.ceil(room / 2));
  const tail = text.slice(text.length - Math.floor(room / 2));
  return `${head}${marker(text.length - head.length - tail.length)}${tail}`;
}

export interface FileBlock {
  text: string;
  /** The whole file went in unabridged: it counts as read for read-before-edit. */
  whole: boolean;
}

/** A text file's block: the lines asked for (all by default), cut to `limit` characters. */
export function fileBlock(
  shown: string,
  content: string,
  limit: number,
  from?: number,
  to?: number,
): FileBlock {
  const lines = content.split("\n");
  if (lines.at(-1) === "") lines.pop();
  // The block's closing fence ends the last line: a final newline would show as a blank line.
  let body = content.endsWith("\n") ? content.slice(0, -1) : content;
  let label = `Attached file ${shown}`;
  if (from !== undefined && to !== undefined) {
    const end = Math.min(to, lines.length);
    body = lines.slice(from - 1, end).join("\n");
    label +=
      from > lines.length
        ? ` (no line ${from}: it has ${lines.length} lines)`
        : ` (lines ${from}-${end} of ${lines.length})`;
  }
  const cut = elide(body, limit, `read the rest with read_file offset/limit (path ${shown})`);
  const f = codeFence(cut);
  return { text: `${label}:\n${f}\n${cut}\n${f}`, whole: from === undefined && cut === body };
}

export function folderBlock(shown: string, names: string[], limit: number): string {
  const listing = elide(names.join("\n"), limit, `list it with glob (path ${shown})`);
  return `Attached folder ${shown} (${names.length} entries):\n${listing || "(empty)"}`;
}
