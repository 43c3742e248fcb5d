// The first screen (R-UI-16): version, model, workspace and the keys that matter.
declare const __TERN_VERSION__: string;

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
  // A narrow terminal gets the keys in one short row, so the first screen keeps its rows for the
  // conversation and the composer (the whole list is in /help).
  const keys =
    cols < NARROW_COLS
      ? "/help keys · Ctrl+C exit"
      : "Enter send · Alt+Enter newline · Esc interrupt · Ctrl+C clear/exit · /help commands";
  return `tern ${ternVersion()} · ${model} · ${displayPath(cwd)}${session}\n${keys}`;
}

/** Below this width the greeting's key row is the short one. */
const NARROW_COLS = 60;

/**
 * The notices of an attached session not shown before in this process: a `/fork`, `/resume` or
 * `/clear` opens the session again, and the model's "not in the catalogue" notice once is enough.
 */
export function freshNotices(seen: Set<string>, notices: readonly string[]): string[] {
  const fresh = notices.filter((n) => !seen.has(n));
  for (const n of fresh) seen.add(n);
  return fresh;
}
