// `*` patterns as config writes them (secret variable names, rule tool names, command and
// argument patterns): `*` is any run of characters, everything else is literal. One translation
// to a regular expression for every place that matches them.

/** `text` with every regular-expression metacharacter escaped. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The whole-string regular expression of a `*` pattern; `s` by default, so `*` spans newlines too. */
export function globToRegExp(glob: string, flags = "s"): RegExp {
  return new RegExp(globSource(glob), flags);
}

/** The source of `globToRegExp`'s expression, to be combined with others. */
export function globSource(glob: string): string {
  return `^${glob.split("*").map(escapeRegExp).join(".*")}$`;
}
