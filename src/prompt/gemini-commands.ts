// Gemini CLI's custom commands (R-WF-7): `.gemini/commands/**/*.toml` of the workspace and
// `~/.gemini/commands` of the person, with `compat.agents`. As Gemini CLI's custom commands page
// documents them (geminicli.com/docs/cli/custom-commands): `prompt` (required) and `description`
// keys; `a/b.toml` is `/a:b`; `{{args}}` is the argument text (shell-quoted inside `!{…}`); with
// no `{{args}}`, the typed command is appended after a blank line; `!{cmd}` runs a shell command
// and puts its output in the prompt; `@{path}` puts a file in. In tern `!{cmd}` becomes a `!`cmd``
// line of R-WF-2 (a bash call judged, and asked about, like any other) and `@{path}` an `@path`
// attachment of R-WF-4 (its block follows the prompt).
import { parse } from "smol-toml";

export interface GeminiCommandText {
  description?: string;
  /** Expands the prompt for the text typed after the command. */
  expand(rest: string): string;
}

/** The command a TOML file holds, or why it is not one (a one-line notice). */
export function readGeminiCommand(text: string, name: string): GeminiCommandText | { error: string } {
  let data: Record<string, unknown>;
  try {
    data = parse(text) as Record<string, unknown>;
  } catch (err) {
    const first = ((err as Error).message ?? "").split("\n")[0];
    return { error: `not TOML (${first})` };
  }
  if (typeof data.prompt !== "string" || data.prompt.trim() === "")
    return { error: 'no "prompt" string (Gemini CLI requires one)' };
  if (data.description !== undefined && typeof data.description !== "string")
    return { error: '"description" must be a string' };
  const template = data.prompt;
  const shellSpan = unconvertibleShell(template);
  if (shellSpan) return { error: `!{${shellSpan}} holds a backquote or a line break, which tern cannot run` };
  return {
    ...(typeof data.description === "string" ? { description: data.description } : {}),
    expand: (rest) => expandGemini(template, rest, name),
  };
}

/** A `!{…}` command tern's `!`cmd`` lines cannot carry (a backquote or a newline in it). */
function unconvertibleShell(template: string): string | undefined {
  for (const span of spans(template, "!{")) if (/[`\n]/.test(span.inner)) return span.inner;
  return undefined;
}

/** `!{…}` / `@{…}` spans with balanced braces, as Gemini CLI reads them. */
function spans(text: string, open: "!{" | "@{"): { start: number; end: number; inner: string }[] {
  const out: { start: number; end: number; inner: string }[] = [];
  let i = text.indexOf(open);
  while (i >= 0) {
    let depth = 0;
    let j = i + 1;
    for (; j < text.length; j++) {
      if (text[j] === "{") depth++;
      else if (text[j] === "}" && --depth === 0) break;
    }
    if (j >= text.length) break;
    out.push({ start: i, end: j + 1, inner: text.slice(i + 2, j) });
    i = text.indexOf(open, j + 1);
  }
  return out;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** Typed text never becomes a shell line of its own: `!`` in it is broken up. */
const inert = (s: string) => s.replace(/!`/g, "! `");

export function expandGemini(template: string, rest: string, name: string): string {
  const args = rest.trim();
  const hasArgs = template.includes("{{args}}");
  let out = "";
  let at = 0;
  const all = [...spans(template, "!{"), ...spans(template, "@{")].sort((a, b) => a.start - b.start);
  for (const span of all) {
    if (span.start < at) continue;
    out += inert(template.slice(at, span.start).replaceAll("{{args}}", args));
    if (template.startsWith("!{", span.start))
      out += `!\`${span.inner.replaceAll("{{args}}", shellQuote(args)).trim()}\``;
    else out += ` @${span.inner.trim()} `;
    at = span.end;
  }
  out += inert(template.slice(at).replaceAll("{{args}}", args));
  out = out.trim();
  if (!hasArgs && args) out += `\n\n${inert(`${name} ${args}`)}`;
  return out;
}
