// Permission rules of R-TOOL-2: `tool` or `tool(pattern)`. Bash patterns are command globs
// matched against each simple command of a bash-faithful parse (shell-parse.ts); path tools
// match picomatch globs on the workspace-relative resolved path (or the absolute path, for
// rules about places outside it); MCP tools match `<set>__<tool>` or `mcp__<set>__<tool>`,
// their pattern a glob over the arguments as compact JSON.
import { createRequire } from "node:module";
import { homedir } from "node:os";
import { relative, sep } from "node:path";
import { readRule } from "../../config/rule-syntax.js";
import { denyViews } from "./bash-deny.js";
import { compileDenyPattern, DenyAnalysisTooLarge, viewMatches } from "./bash-deny-match.js";
import { grantTooWide } from "./bash-deny-programs.js";
import { hasBraces } from "../shell/brace-expand.js";
import { grantIsExact } from "./grant-scope.js";
import { parseShell, type ShellParse, type ShellWord } from "../shell/shell-parse.js";
import { globToRegExp } from "../../config/wildcard.js";

export interface Rule {
  text: string;
  /** Tool name; `*` matches any run of characters (e.g. `myset__*`). */
  tool: string;
  /** `null` = the bare tool: every call of it. */
  pattern: string | null;
}

/** `null` when the text is not a rule, so config validation can name it. */
export function parseRule(text: string): Rule | null {
  const r = readRule(text);
  return "error" in r ? null : r;
}

/** MCP tools answer to `<set>__<tool>` and to the Claude-style `mcp__<set>__<tool>`. */
export function toolNameMatches(rule: Rule, name: string, kind?: string): boolean {
  const names = kind === "mcp" ? [name, `mcp__${name}`] : [name];
  const re = rule.tool.includes("*") ? globToRegExp(rule.tool) : null;
  return names.some((n) => (re ? re.test(n) : rule.tool === n));
}

/** Holds `$(…)`, backticks, `<(…)` / `>(…)` or arithmetic: what it runs cannot be judged from the text. */
export function hasSubstitution(command: string): boolean {
  return parseShell(command).substitutes;
}

/** Bash reserved words that only steer other commands; an allow rule judges what they steer. */
const LEADING_KEYWORDS = new Set([
  "!",
  "{",
  "}",
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "esac",
]);

function isPlainWord(w: ShellWord): boolean {
  return !w.expands && w.unquoted.every(Boolean);
}

/** The top-level simple commands, each as its words (after quote removal) joined by one space. */
export function simpleCommands(command: string): string[] {
  return commandTexts(parseShell(command));
}

/** The top-level simple commands without the reserved words that only steer them. */
function steeredCommands(parsed: ShellParse): ShellWord[][] {
  const out: ShellWord[][] = [];
  for (const cmd of parsed.commands) {
    if (cmd.nested) continue;
    let words = cmd.words;
    while (words.length && isPlainWord(words[0]) && LEADING_KEYWORDS.has(words[0].value))
      words = words.slice(1);
    if (words.length === 0 && cmd.words.length > 0 && cmd.redirects.length === 0) continue;
    out.push(words);
  }
  return out;
}

function commandTexts(parsed: ShellParse): string[] {
  return steeredCommands(parsed).map((words) => words.map((w) => w.value).join(" "));
}

/**
 * Whether allow rules and grants cover a readable, substitution-free line: every simple
 * command matches one of the patterns or starts with a granted `program first-argument`.
 */
export function bashLineCovered(parsed: ShellParse, patterns: string[], grants: Set<string>): boolean {
  if (parsed.errors.length || parsed.substitutes) return false;
  const res = patterns.map((p) => globToRegExp(normalizeSpaces(p)));
  const cmds = steeredCommands(parsed);
  return (
    cmds.length > 0 &&
    cmds.every((words) => {
      if (words.length > 0 && !knownProgram(words[0])) return false;
      const text = words.map((w) => w.value).join(" ");
      return res.some((re) => re.test(text)) || grantCoversWords(grants, words);
    })
  );
}

function grantCoversWords(grants: Set<string>, words: ShellWord[]): boolean {
  if (words.length === 0 || !isPlainWord(words[0])) return false;
  const values = words.map((w) => w.value);
  if (grantIsExact(values[0], values.slice(1)))
    return words.every(isPlainWord) && grants.has(values.join(" "));
  if (grants.has(words[0].value)) return true;
  return words.length > 1 && isPlainWord(words[1]) && grants.has(`${words[0].value} ${words[1].value}`);
}

/** Whether the command could be read faithfully; one that cannot is never allowed by a rule. */
export function isReadable(command: string): boolean {
  return parseShell(command).errors.length === 0;
}

function normalizeSpaces(s: string): string {
  return s.trim().replace(/\s+/g, " ");
}

/** Allow: the line reads cleanly, nothing is substituted, and every simple command matches. */
export function bashAllowMatches(pattern: string, command: string): boolean {
  return bashLineCovered(parseShell(command), [pattern], new Set());
}

/**
 * A program word a rule can judge: not a glob (`ech? hi` runs whatever the folder's files make
 * of it), not an expansion (`git$X` is another program when X is set), and no `..` segment
 * (`bash(./scripts/*)` is not meant to cover `./scripts/../evil.sh`).
 */
function knownProgram(w: ShellWord): boolean {
  // Nor a brace expansion: `./scripts/{..,x}/evil.sh` runs `./scripts/../evil.sh`.
  return !w.globs && !w.expands && !hasBraces(w) && !/(^|\/)\.\.(\/|$)/.test(w.value);
}

/**
 * Deny: any simple command matches as bash would run it (bash-deny.ts), or the whole line as
 * written. A line too tangled to analyse within bounds counts as a match.
 */
export function bashDenyMatches(pattern: string, command: string): boolean {
  const compiled = compileDenyPattern(pattern);
  if (compiled.whole.test(normalizeSpaces(command))) return true;
  const views = cachedDenyViews(command);
  return views === null || views.some((view) => viewMatches(compiled, view));
}

// Every deny rule of a batch looks at the same command: analyse it once.
let lastDenyCommand: string | null = null;
let lastDenyViews: ReturnType<typeof denyViews> | null = null;

/** `null` when the command is too large to analyse (it then counts as matching). */
function cachedDenyViews(command: string): ReturnType<typeof denyViews> | null {
  if (command !== lastDenyCommand) {
    lastDenyCommand = command;
    try {
      lastDenyViews = denyViews(command);
    } catch (err) {
      if (!(err instanceof DenyAnalysisTooLarge)) throw err;
      lastDenyViews = null;
    }
  }
  return lastDenyViews;
}

/**
 * The grant an `always` answer gives a bash command: each simple command's program and first
 * argument (`npm test`), never all of bash. `null` when the command cannot carry a grant.
 */
export function bashGrantPrefixes(command: string): string[] | null {
  const parsed = parseShell(command);
  if (parsed.errors.length || parsed.substitutes) return null;
  const out: string[] = [];
  for (const all of steeredCommands(parsed)) {
    const words = all.slice(0, 2);
    if (words.length === 0 || !words.every(isPlainWord)) return null;
    // `env X=1`, `timeout 5`, `bash -c`, `eval echo`, `python3 -c` would cover any command.
    if (/=/.test(words[0].value) || grantTooWide(words[0].value, words[1]?.value)) return null;
    // `find … -exec`, `sed …`, `git -c …`: only this very command (grant-scope.ts).
    const values = all.map((w) => w.value);
    if (grantIsExact(values[0], values.slice(1))) {
      if (!all.every(isPlainWord)) return null;
      out.push(values.join(" "));
      continue;
    }
    out.push(words.map((w) => w.value).join(" "));
  }
  return out.length ? [...new Set(out)] : null;
}

/** Whether every simple command starts with a granted prefix (`npm test` covers `npm test -- -u`). */
export function bashGrantCovers(grants: Set<string>, command: string): boolean {
  return grants.size > 0 && bashLineCovered(parseShell(command), [], grants);
}

/** MCP rule patterns are globs over the call's arguments as compact JSON (`*` covers any call). */
export function mcpArgsMatch(pattern: string, args: unknown, which: "allow" | "deny"): boolean {
  const re = globToRegExp(pattern.trim());
  const json = JSON.stringify(args ?? {});
  if (re.test(json)) return true;
  if (which === "allow") return false;
  const strings = Object.values((args ?? {}) as Record<string, unknown>).filter((v) => typeof v === "string");
  return strings.some((s) => re.test(s as string));
}

function expandHome(pattern: string): string {
  return pattern === "~" || pattern.startsWith("~/") ? homedir() + pattern.slice(1) : pattern;
}

// picomatch is required when a path rule is first matched, from the installed package (a
// require the bundler does not follow): a run whose model calls no tool never matches one, and
// its module body cost every start ~2 ms.
let picomatch: typeof import("picomatch") | undefined;

/** Matches the workspace-relative path, and the absolute path for rules written as absolute. */
export function pathMatches(pattern: string, absPath: string, cwd: string): boolean {
  const glob = expandHome(pattern);
  picomatch ??= createRequire(import.meta.url)("picomatch") as typeof import("picomatch");
  const isMatch = picomatch(glob, { dot: true });
  const rel = relative(cwd, absPath).split(sep).join("/") || ".";
  return isMatch(rel) || isMatch(absPath);
}
