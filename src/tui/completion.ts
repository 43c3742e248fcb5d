// What the composer can complete (R-UI-14): slash commands from the shared table (with their
// descriptions, for the `/` menu) and `@file` paths of the workspace; and the nearest command
// for a mistyped one. Pure: the file list comes in from the caller.
import { COMMANDS } from "../commands/table.js";

export interface MenuItem {
  label: string;
  detail: string;
  /** Replaces the text between the menu's start and end when chosen. */
  value: string;
  /** A command that needs an argument first: choosing it completes instead of running it. */
  needsArgs?: boolean;
}

export interface Menu {
  kind: "command" | "file";
  items: MenuItem[];
  index: number;
  start: number;
  end: number;
}

/** The `/` menu: while the composer holds only a command name being typed. */
export function commandMenu(text: string, cursor: number): Menu | undefined {
  if (!/^\/[\w-]*$/.test(text) || cursor !== text.length) return undefined;
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

const MAX_FILES = 50;

/** Workspace paths for the `@` token at the cursor: name matches first, then path matches. */
export function fileMenu(text: string, cursor: number, files: readonly string[]): Menu | undefined {
  const token = atToken(text, cursor);
  if (!token) return undefined;
  const q = token.query.toLowerCase();
  const ranked: { path: string; rank: number }[] = [];
  for (const path of files) {
    const lower = path.toLowerCase();
    const base = lower.slice(lower.lastIndexOf("/") + 1);
    const rank = base.startsWith(q) ? 0 : lower.startsWith(q) ? 1 : lower.includes(q) ? 2 : -1;
    if (rank >= 0) ranked.push({ path, rank });
  }
  ranked.sort((a, b) => a.rank - b.rank || a.path.length - b.path.length || a.path.localeCompare(b.path));
  const items = ranked
    .slice(0, MAX_FILES)
    .map(({ path }) => ({ label: `@${path}`, detail: "", value: `@${path} ` }));
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
