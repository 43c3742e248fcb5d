// Permission rules of R-TOOL-2: `tool` or `tool(pattern)`. Bash allow patterns are command globs
// matched against each simple command of a plainly literal line (literal-line.ts: a whitelist
// grammar, never an emulation of bash); deny patterns against every view the bash reader
// (../shell/, bash-deny.ts) finds of what the line may run; path tools
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
import { grantIsExact } from "./grant-scope.js";
import { type LiteralLine, readLiteralLine } from "./literal-line.js";
import { parseShell, type ShellWord } from "../shell/shell-parse.js";
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

/** apply_patch writes and edits files: rules about edit_file, edit_lineno or write_file judge it too (R-EDIT-1). */
const PATCH_NAMES = ["apply_patch", "edit_file", "edit_lineno", "write_file"];

/** MCP tools answer to `<set>__<tool>` and to the Claude-style `mcp__<set>__<tool>`. */
export function toolNameMatches(rule: Rule, name: string, kind?: string): boolean {
  const names = kind === "mcp" ? [name, `mcp__${name}`] : name === "apply_patch" ? PATCH_NAMES : [name];
  const re = rule.tool.includes("*") ? globToRegExp(rule.tool) : null;
  return names.some((n) => (re ? re.test(n) : rule.tool === n));
}

/** Bash reserved words that only steer other commands (for display: `simpleCommands`). */
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

/**
 * The top-level simple commands as the bash reader sees them, each as its words (after quote
 * removal) joined by one space, without the reserved words that only steer them. For display;
 * what a rule covers is decided by the literal gate (literal-line.ts).
 */
export function simpleCommands(command: string): string[] {
  const out: string[] = [];
  for (const cmd of parseShell(command).commands) {
    if (cmd.nested) continue;
    let words = cmd.words;
    while (words.length && isPlainWord(words[0]) && LEADING_KEYWORDS.has(words[0].value))
      words = words.slice(1);
    if (words.length === 0 && cmd.words.length > 0 && cmd.redirects.length === 0) continue;
    out.push(words.map((w) => w.value).join(" "));
  }
  return out;
}

/**
 * Whether allow patterns and grants cover a plainly literal line (literal-line.ts): every simple
 * command matches one of the patterns or starts with a granted `program first-argument`. A
 * refused line is covered by none.
 */
export function bashLineCovered(line: LiteralLine, patterns: string[], grants: Set<string>): boolean {
  if ("refused" in line) return false;
  // A space in a pattern is a word break: `npm run test*` does not cover `npm 'run test'`.
  const res = patterns.map((p) => globToRegExp(normalizeSpaces(p).replaceAll(" ", WORD_BREAK)));
  return line.commands.every(({ words }, k) => {
    if (!knownProgram(words[0])) return false;
    // After `cd`, `./scripts/x` is another folder's file than the rule means.
    const moved = line.commands.slice(0, k).some((c) => c.words[0] === "cd");
    if (moved && words[0].includes("/") && !words[0].startsWith("/")) return false;
    const text = words.join(WORD_BREAK);
    return res.some((re) => re.test(text)) || grantCoversWords(grants, words);
  });
}

/** Stands between words when a pattern is matched; no argument holds it. */
const WORD_BREAK = "\u0000";

function grantCoversWords(grants: Set<string>, words: string[]): boolean {
  if (grantIsExact(words[0], words.slice(1))) return grants.has(grantKey(words));
  if (grants.has(words[0])) return true;
  return words.length > 1 && grants.has(grantKey(words.slice(0, 2)));
}

/**
 * A grant names words, not text: joined by NUL, which no argument holds, so `sed '-i s/a/b/' f`
 * is not the granted `sed -i s/a/b/ f`. `grantText` shows it.
 */
function grantKey(words: string[]): string {
  return words.join(WORD_BREAK);
}

export function grantText(key: string): string {
  return key.replaceAll(WORD_BREAK, " ");
}

function normalizeSpaces(s: string): string {
  return s.trim().replace(/\s+/g, " ");
}

/** Allow: the line is plainly literal and every simple command matches the pattern. */
export function bashAllowMatches(pattern: string, command: string): boolean {
  return bashLineCovered(readLiteralLine(command), [pattern], new Set());
}

/**
 * A program word a rule can judge: no `..` segment (`bash(./scripts/*)` is not meant to cover
 * `./scripts/../evil.sh`). Globs, braces and expansions never get this far (literal-line.ts).
 */
function knownProgram(program: string): boolean {
  return !/(^|\/)\.\.(\/|$)/.test(program);
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
 * The grants an `always` answer gives a bash command (keys: `grantText` shows them): each
 * simple command's program and first argument (`npm test`), never all of bash. `null` when the command cannot carry a grant: only a
 * plainly literal line can (literal-line.ts), the same gate a grant is later matched through.
 */
export function bashGrantPrefixes(command: string): string[] | null {
  const line = readLiteralLine(command);
  if ("refused" in line) return null;
  const out: string[] = [];
  for (const { words } of line.commands) {
    // `env X=1`, `timeout 5`, `bash -c`, `python3 -c` would cover any command.
    if (grantTooWide(words[0], words[1])) return null;
    // `find … -exec`, `sed …`, `git -c …`: only this very command (grant-scope.ts).
    out.push(grantKey(grantIsExact(words[0], words.slice(1)) ? words : words.slice(0, 2)));
  }
  return [...new Set(out)];
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
