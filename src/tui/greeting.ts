// The first screen (R-UI-16): version, model, workspace and the keys that matter; at 40 columns
// it keeps to four rows with the model's notice, so the composer stays in view.
import { width } from "./ansi.js";
import { offerSays } from "./project-server-offer.js";
import { middle } from "./slash-menu.js";

declare const __TERN_VERSION__: string;

/** The keys row: the whole list where it fits, else the short one (/help has them all). */
const ALL_KEYS = "Enter send · Alt+Enter newline · Esc interrupt · Ctrl+C clear/exit · /help more";
const SHORT_KEYS = "/help keys · Ctrl+C exit";

/** The build's version (esbuild defines it; absent when the sources run under a test runner). */
export function ternVersion(): string {
  return typeof __TERN_VERSION__ === "string" ? __TERN_VERSION__ : "dev";
}

/** The workspace with the home folder shown as `~`. */
function displayPath(path: string): string {
  const home = process.env.HOME;
  return home && (path === home || path.startsWith(`${home}/`)) ? `~${path.slice(home.length)}` : path;
}

/** What is printed when a session is attached: the full greeting once, then one line per switch. */
export function greeting(
  first: boolean,
  model: string,
  cwd: string,
  sessionId: string,
  resumed: boolean,
  cols = process.stdout.columns || 100,
): string {
  const session = resumed ? ` · session ${sessionId} (resumed)` : "";
  if (!first) return `${model}${session}`;
  const head = `tern ${ternVersion()} · ${model} · `;
  if (cols >= NARROW_COLS) {
    // The hint row never wraps: the whole list where it fits (79 columns), else the short one.
    const keys = width(ALL_KEYS) < cols ? ALL_KEYS : SHORT_KEYS;
    return `${head}${displayPath(cwd)}${session}\n${keys}`;
  }
  // A narrow terminal gets the keys in one short row (the whole list is in /help), and the
  // workspace shortened in its middle to end the first row (two if the model's id is long), so
  // the first screen keeps its rows for the conversation and the composer.
  const room = (width(head) + width(session) + 4 <= cols ? cols : 2 * cols) - width(head) - width(session);
  return `${head}${middle(displayPath(cwd), Math.max(4, room))}${session}\n${SHORT_KEYS}`;
}

/**
 * A notice as the first screen shows it: whole when it fits in two rows, else, for the model's
 * "not in the catalogue" notice, one short line that still says which model, that its window
 * and prices are unknown, and where to set them.
 */
export function noticeLine(notice: string, model: string, cols = process.stdout.columns || 100): string {
  const line = `notice: ${notice}`;
  if (width(line) <= 2 * cols || !notice.startsWith(`model ${model} is not in the catalogue`)) return line;
  const short = `notice: ${model}: window and prices unknown; set models in config.json`;
  // A long model id: the shortest form that still names the model, the gap and where to fill it.
  return width(short) <= 2 * cols ? short : `notice: ${model}: unknown window/prices (config.json)`;
}

/** Below this width the greeting's key row is the short one. */
const NARROW_COLS = 60;

/**
 * The notices of an attached session not shown before in this process, as lines (`noticeLine`):
 * a `/fork`, `/resume` or `/clear` opens the session again, and the model's "not in the
 * catalogue" notice once is enough. Nor those the start's offer of the workspace's MCP servers
 * (`offer`) says already.
 */
export function freshNotices(
  seen: Set<string>,
  notices: readonly string[],
  model: string,
  offer?: string,
): string[] {
  const fresh = notices.filter((n) => !seen.has(n) && !offerSays(offer, n));
  for (const n of fresh) seen.add(n);
  return fresh.map((n) => noticeLine(n, model));
}
