// Permission rules of R-TOOL-2: `tool` or `tool(pattern)`. Bash patterns are command globs
// matched against each simple command; path tools match picomatch globs on the
// workspace-relative path (or the absolute path, for rules about places outside it).
import { homedir } from "node:os";
import { relative, sep } from "node:path";
import picomatch from "picomatch";
import { parse } from "shell-quote";

export interface Rule {
  text: string;
  /** Tool name; `*` matches any run of characters (e.g. `myset__*`). */
  tool: string;
  /** `null` = the bare tool: every call of it. */
  pattern: string | null;
}

const RULE_RE = /^([A-Za-z0-9_.*-]+)(?:\((.*)\))?$/s;

/** `null` when the text is not a rule, so config validation can name it. */
export function parseRule(text: string): Rule | null {
  const m = RULE_RE.exec(text.trim());
  if (!m) return null;
  const pattern = m[2] === undefined ? null : m[2].trim();
  if (pattern === "") return null;
  return { text: text.trim(), tool: m[1], pattern };
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "s");
}

export function toolNameMatches(rule: Rule, name: string): boolean {
  return rule.tool.includes("*") ? globToRegExp(rule.tool).test(name) : rule.tool === name;
}

/** Holds `$(…)`, backticks, or `<(…)` / `>(…)`: what it runs cannot be judged from the text. */
export function hasSubstitution(command: string): boolean {
  return /\$\(|`|<\(|>\(/.test(command);
}

const SEPARATORS = new Set([";", "&&", "||", "|", "|&", "&", ";;", "(", ")", "<(", ">("]);

/**
 * The simple commands of a command line, each as its words joined by one space. Splits on
 * `;`, `&&`, `||`, `|`, `&` and newlines (shell-quote reads a newline as plain space, so lines
 * are split first). Variables are kept as written, never expanded.
 */
export function simpleCommands(command: string): string[] {
  const out: string[] = [];
  for (const line of command.split(/\r?\n/)) {
    let words: string[] = [];
    const flush = () => {
      if (words.length) out.push(words.join(" "));
      words = [];
    };
    for (const token of parse(line, (key) => `$${key}`)) {
      if (typeof token === "string") words.push(token);
      else if ("op" in token) {
        if (token.op === "glob") words.push((token as { pattern: string }).pattern);
        else if (SEPARATORS.has(token.op)) flush();
        else words.push(token.op);
      } else if ("comment" in token) {
        flush();
        break;
      }
    }
    flush();
  }
  return out;
}

/** The commands inside `$(…)` and backticks, so a deny rule sees what a substitution would run. */
function substitutedCommands(command: string): string[] {
  const inner: string[] = [];
  for (const m of command.matchAll(/\$\(([^()]*)\)|`([^`]*)`|[<>]\(([^()]*)\)/g)) {
    inner.push(...simpleCommands(m[1] ?? m[2] ?? m[3] ?? ""));
  }
  return inner;
}

function normalizeSpaces(s: string): string {
  return s.trim().replace(/\s+/g, " ");
}

/** Allow: every simple command matches and nothing is substituted. */
export function bashAllowMatches(pattern: string, command: string): boolean {
  if (hasSubstitution(command)) return false;
  const re = globToRegExp(normalizeSpaces(pattern));
  const cmds = simpleCommands(command);
  return cmds.length > 0 && cmds.every((c) => re.test(c));
}

/** Deny: any simple command matches, including those inside substitutions, or the whole line. */
export function bashDenyMatches(pattern: string, command: string): boolean {
  const re = globToRegExp(normalizeSpaces(pattern));
  const cmds = [...simpleCommands(command), ...substitutedCommands(command), normalizeSpaces(command)];
  return cmds.some((c) => re.test(c));
}

function expandHome(pattern: string): string {
  return pattern === "~" || pattern.startsWith("~/") ? homedir() + pattern.slice(1) : pattern;
}

/** Matches the workspace-relative path, and the absolute path for rules written as absolute. */
export function pathMatches(pattern: string, absPath: string, cwd: string): boolean {
  const glob = expandHome(pattern);
  const isMatch = picomatch(glob, { dot: true });
  const rel = relative(cwd, absPath).split(sep).join("/") || ".";
  return isMatch(rel) || isMatch(absPath);
}
