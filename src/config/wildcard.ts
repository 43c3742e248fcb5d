// `*` patterns as config writes them (secret variable names, rule tool names, command and
// argument patterns): `*` is any run of characters, everything else is literal. One translation
// to a regular expression for every place that matches them.

/** `text` with every regular-expression metacharacter escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The whole-string regular expression of a `*` pattern; `s` by default, so `*` spans newlines too. */
export function globToRegExp(glob: string, flags = "s"): RegExp {
  return new RegExp(`^${glob.split("*").map(escapeRegExp).join(".*")}$`, flags);
}

/**
 * What `globToRegExp(glob, ignoreCase ? "is" : "s").test(text)` answers, without compiling an
 * expression: every start matches variable names against the secret patterns, and the first
 * case-insensitive expression of a process costs ~0.3 ms. `ignoreCase` folds ASCII letters only,
 * as /i does for them.
 */
export function wildcardMatches(glob: string, text: string, ignoreCase = false): boolean {
  return ignoreCase ? matches(asciiUpper(glob), asciiUpper(text)) : matches(glob, text);
}

/** Whether any of the patterns matches (`wildcardMatches`); the text is case-folded once for all. */
export function wildcardMatchesAny(globs: readonly string[], text: string, ignoreCase = false): boolean {
  if (globs.length === 0) return false;
  const t = ignoreCase ? asciiUpper(text) : text;
  return globs.some((g) => matches(ignoreCase ? asciiUpper(g) : g, t));
}

function matches(glob: string, t: string): boolean {
  const parts = glob.split("*");
  if (parts.length === 1) return parts[0] === t;
  const first = parts[0];
  const last = parts[parts.length - 1];
  if (t.length < first.length + last.length || !t.startsWith(first) || !t.endsWith(last)) return false;
  // Each middle part at its leftmost place after the one before: leaves the most room for the rest.
  const end = t.length - last.length;
  let at = first.length;
  for (const part of parts.slice(1, -1)) {
    const found = t.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

function asciiUpper(text: string): string {
  return text.replace(/[a-z]+/g, (run) => run.toUpperCase());
}
