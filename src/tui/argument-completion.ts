// Tab after a command's name completes its argument (R-UI-28): model ids for `/model` (with their
// window and price), the formats and file names of `/export`, `reconnect` / `approve` and then the MCP server
// names for `/mcp`, session ids for `/resume`. One match goes in at once; several open the menu
// (composer-input.ts), ↑/↓ choose and Tab or Enter take, as with `/` commands.
import type { Config } from "../config/types.js";
import type { Menu, MenuItem } from "./completion.js";
import { modelIds, modelPicker } from "./model-picker.js";

/** What the choices are read from, when Tab is pressed. */
export interface ArgumentSources {
  config(): Config;
  currentModel(): string;
  sessionIds(): string[];
  /** Paths under the workspace that start with `typed` (a folder's with a trailing `/`). */
  paths(typed: string): string[];
}

/** The choices for the argument being typed; undefined: nothing to complete here. */
export function argumentChoices(
  sources: ArgumentSources,
  command: string,
  before: string[],
  typed = "",
): MenuItem[] | undefined {
  const plain = (value: string, detail = "") => ({ label: value, detail, value: `${value} ` });
  if (command === "/model" && before.length === 0) {
    const picker = modelPicker(sources.config(), sources.currentModel());
    const facts = new Map(picker.entries.map((e) => [e.id, e.facts(0)]));
    return modelIds(sources.config(), sources.currentModel()).map((id) => plain(id, facts.get(id)));
  }
  if (command === "/export" && before.length <= 1) {
    // A folder goes in without the space, so its files come at the next Tab.
    const files = sources
      .paths(typed)
      .map((p) => ({ label: p, detail: "", value: p.endsWith("/") ? p : `${p} ` }));
    if (before.length === 1) return files;
    return [plain("md", "the archive as markdown"), plain("json", "the archive as JSON lines"), ...files];
  }
  if (command === "/mcp" && before.length === 0)
    return [
      plain("reconnect", "restart one server"),
      plain("approve", "start the project's .mcp.json servers"),
    ];
  if (command === "/mcp" && before[0] === "reconnect" && before.length === 1)
    return sources.config().toolSets.map((s) => plain(s.name, s.url ?? s.command ?? ""));
  if (command === "/resume" && before.length === 0) return sources.sessionIds().map((id) => plain(id));
  return undefined;
}

/**
 * The menu for Tab at the end of `/command arg…`: the choices that start with what is typed, then
 * those that hold it; undefined when the text is no command line or nothing matches.
 */
export function argumentMenu(sources: ArgumentSources, text: string, cursor: number): Menu | undefined {
  if (cursor !== text.length || text.includes("\n")) return undefined;
  const m = /^(\/[\w:.-]+)((?: +\S+)*) +(\S*)$/.exec(text);
  if (!m) return undefined;
  const before = m[2].trim() ? m[2].trim().split(/ +/) : [];
  const choices = argumentChoices(sources, m[1].toLowerCase(), before, m[3]);
  if (!choices) return undefined;
  const typed = m[3].toLowerCase();
  const starts = choices.filter((c) => c.label.toLowerCase().startsWith(typed));
  const holds = choices.filter((c) => !starts.includes(c) && c.label.toLowerCase().includes(typed));
  const items = [...starts, ...holds];
  if (items.length === 0) return undefined;
  return { kind: "argument", items, index: 0, start: text.length - m[3].length, end: text.length };
}
