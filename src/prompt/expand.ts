// A custom command's or skill's body as the prompt (R-WF-2, Claude Code's placeholders):
// `$ARGUMENTS` is the whole argument text, `$1`…`$9` its words (quotes group words); a body
// without `$ARGUMENTS` gets the arguments after it, so what was typed is never lost.

/** The argument words: whitespace splits, '…' and "…" group. */
export function argumentWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]);
  return words;
}

export function expandArguments(body: string, args: string): string {
  const words = argumentWords(args);
  const hasAll = body.includes("$ARGUMENTS");
  const hasPositional = /\$[1-9](?!\d)/.test(body);
  // One pass, so an argument that itself holds `$1` stays as typed.
  let text = body.replace(/\$ARGUMENTS\b|\$([1-9])(?!\d)/g, (_all, n: string | undefined) =>
    n === undefined ? args : (words[Number(n) - 1] ?? ""),
  );
  if (!hasAll && !hasPositional && args.trim()) text = `${text}\n\nARGUMENTS: ${args.trim()}`;
  return text;
}
