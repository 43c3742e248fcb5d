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
  /** Indexes into `label` of the characters a search matched, drawn marked. */
  marks?: ReadonlySet<number>;
}

export interface Menu {
  /** `history`: Ctrl+R's matching prompts (history-search.ts). */
  kind: "command" | "file" | "history";
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

const MAX_FILES = 50;

/** `q` as a subsequence of `s` from `from`: the index after its last character, or -1. */
function subsequence(s: string, q: string, from = 0): number {
  let at = from;
  for (let i = 0; i < q.length; i++) {
    at = s.indexOf(q[i], at);
    if (at < 0) return -1;
    at++;
  }
  return at;
}

/**
 * Fuzzy on path segments: each `/`-separated part of the query is a subsequence of one segment
 * of the path, in order (`pk1/m3/f2` finds `packages/pkg0001/src/mod3/file2.ts`).
 */
function segmentsMatch(segments: readonly string[], parts: readonly string[]): boolean {
  let s = 0;
  for (const part of parts) {
    while (s < segments.length && subsequence(segments[s], part) < 0) s++;
    if (s === segments.length) return false;
    s++;
  }
  return true;
}

/** 0 name starts with it, 1 path starts with it, 2 path contains it, 3 fuzzy on segments; -1 none. */
function rankOf(lower: string, q: string, parts: readonly string[], flat: string): number {
  // No slice per path: this runs for each of 100,000 paths on a keystroke.
  if (lower.startsWith(q, lower.lastIndexOf("/") + 1)) return 0;
  if (lower.startsWith(q)) return 1;
  if (lower.includes(q)) return 2;
  if (subsequence(lower, flat) < 0) return -1;
  return segmentsMatch(lower.split("/"), parts) ? 3 : -1;
}

/**
 * The paths that can match a query are a subset of those that matched any prefix of it (every
 * rank is monotone in the query), so typing on narrows the last answer instead of the whole
 * 100,000-path list: the first keystroke scans it, later ones a fraction.
 */
let narrowed: { files: readonly string[]; q: string; candidates: readonly number[] } | undefined;
/** The lower-cased paths of the newest file list (made once per list, not per keystroke). */
let lowered: { files: readonly string[]; lower: string[] } | undefined;

type Ranked = { path: string; rank: number };
const before = (a: Ranked, b: Ranked) =>
  a.rank - b.rank || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** Workspace paths for the `@` token at the cursor: name matches first, then path, then fuzzy. */
export function fileMenu(text: string, cursor: number, files: readonly string[]): Menu | undefined {
  const token = atToken(text, cursor);
  if (!token) return undefined;
  const q = token.query.toLowerCase();
  const parts = q.split("/").filter((p) => p !== "");
  if (lowered?.files !== files) lowered = { files, lower: files.map((f) => f.toLowerCase()) };
  const lower = lowered.lower;
  const flat = q.replaceAll("/", "");
  const from =
    narrowed && narrowed.files === files && q.startsWith(narrowed.q) ? narrowed.candidates : files.keys();
  // Only the best MAX_FILES are kept in order (sorting all 100,000 matches of `@p` took a second).
  const best: Ranked[] = [];
  const candidates: number[] = [];
  for (const i of from) {
    const rank = rankOf(lower[i], q, parts, flat);
    if (rank < 0) continue;
    candidates.push(i);
    const worst = best.length === MAX_FILES ? best[MAX_FILES - 1] : undefined;
    if (worst && (rank > worst.rank || (rank === worst.rank && files[i].length > worst.path.length)))
      continue;
    const r = { path: files[i], rank };
    if (worst && before(r, worst) >= 0) continue;
    let at = best.length;
    while (at > 0 && before(r, best[at - 1]) < 0) at--;
    best.splice(at, 0, r);
    if (best.length > MAX_FILES) best.pop();
  }
  narrowed = { files, q, candidates };
  const items = best.map(({ path }) => ({ label: `@${path}`, detail: "", value: `@${path} ` }));
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
