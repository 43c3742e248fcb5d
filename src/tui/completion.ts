// What the composer can complete (R-UI-14): slash commands from the shared table (with their
// descriptions, for the `/` menu) and `@file` paths of the workspace; and the nearest command
// for a mistyped one. Pure: the file list comes in from the caller.
import { COMMANDS } from "../commands/table.js";
import { FileScan } from "./file-match.js";

export interface MenuItem {
  label: string;
  detail: string;
  /** Replaces the text between the menu's start and end when chosen. */
  value: string;
  /** A command that needs an argument first: choosing it completes instead of running it. */
  needsArgs?: boolean;
  /** Indexes into `label` of the characters a search matched, drawn marked. */
  marks?: ReadonlySet<number>;
}

export interface Menu {
  /** `history`: Ctrl+R's matching prompts (history-search.ts); `argument`: Tab after a command (argument-completion.ts). */
  kind: "command" | "file" | "history" | "argument";
  items: MenuItem[];
  index: number;
  start: number;
  end: number;
}

/**
 * The `/` menu: while the composer holds only a command name being typed. Names may hold `:`
 * (namespaced custom commands, `/frontend:component`) and `.`, so typing them keeps it open.
 */
export function commandMenu(text: string, cursor: number): Menu | undefined {
  if (!/^\/[\w:.-]*$/.test(text) || cursor !== text.length) return undefined;
  const typed = text.toLowerCase();
  const items: MenuItem[] = [];
  for (const c of COMMANDS)
    for (const name of [c.name, ...(c.aliases ?? [])])
      if (name.startsWith(typed))
        items.push({
          label: c.args ? `${name} ${c.args}` : name,
          detail: name === c.name ? c.description : `${c.description} (alias of ${c.name})`,
          value: c.args ? `${name} ` : name,
          needsArgs: c.args?.startsWith("<"),
        });
  if (items.length === 0 || (items.length === 1 && items[0].value.trim() === text)) return undefined;
  return { kind: "command", items, index: 0, start: 0, end: text.length };
}

/** The `@word` the cursor is in or right after, if any. */
export function atToken(
  text: string,
  cursor: number,
): { start: number; end: number; query: string } | undefined {
  let start = cursor;
  while (start > 0 && !/\s/.test(text[start - 1])) start--;
  if (text[start] !== "@") return undefined;
  let end = cursor;
  while (end < text.length && !/\s/.test(text[end])) end++;
  return { start, end, query: text.slice(start + 1, cursor) };
}

/** Workspace paths for the `@` token at the cursor: name matches first, then path, then fuzzy. */
export function fileMenu(text: string, cursor: number, files: readonly string[]): Menu | undefined {
  const token = atToken(text, cursor);
  if (!token) return undefined;
  const scan = new FileScan(files, token.query);
  scan.step();
  return fileMenuOf(token, scan.paths());
}

/** The menu of the best `paths` for the `@` token they were matched for. */
export function fileMenuOf(
  token: { start: number; end: number },
  paths: readonly string[],
): Menu | undefined {
  const items = paths.map((path) => ({ label: `@${path}`, detail: "", value: `@${path} ` }));
  if (items.length === 0) return undefined;
  return { kind: "file", items, index: 0, start: token.start, end: token.end };
}

/** The text and cursor after choosing the menu's selected item. */
export function applyMenu(text: string, menu: Menu): { text: string; cursor: number } {
  const value = menu.items[menu.index].value;
  return {
    text: text.slice(0, menu.start) + value + text.slice(menu.end),
    cursor: menu.start + value.length,
  };
}
