// Matching one deny pattern against one view of a simple command (see bash-deny.ts): the
// whole text as a glob, an unknown or globbed program standing for the rule's program, and
// `program -flags… rest` patterns with short flags compared as a set.
import type { ShellWord } from "../shell/shell-types.js";
import { globToRegExp } from "../../config/wildcard.js";

/** A word as a deny rule compares it. */
export interface DenyWord {
  value: string;
  /** Its value is not known before running (an expansion): it may be any program. */
  unknown: boolean;
  /** Unquoted glob characters: compared as a glob against the rule's program. */
  globs: boolean;
  /** Read by bash as `NAME=value` (set when known from the parse). */
  assignment?: boolean;
}

export class DenyAnalysisTooLarge extends Error {}

export function toDenyWord(w: ShellWord): DenyWord {
  return { value: w.value, unknown: w.expands, globs: w.globs, assignment: isAssignment(w) };
}

/** `NAME=…`, `NAME+=…` or `NAME[…]=…` with the name and `=` written unquoted: bash reads it as an assignment. */
export function isAssignment(w: ShellWord): boolean {
  const m = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/.exec(w.value);
  return m !== null && w.unquoted.slice(0, m[0].length).every(Boolean);
}

/** A command word's own glob (`/bin/r?`, `r*`) read as a regular expression. */
function wordGlobToRegExp(glob: string): RegExp {
  let body = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "*") body += ".*";
    else if (c === "?") body += ".";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) body += "\\[";
      else {
        body += `[${glob
          .slice(i + 1, end)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")}]`;
        i = end;
      }
    } else body += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${body}$`, "s");
}

interface DenyPattern {
  whole: RegExp;
  /** The rule's first word: the program it is about. */
  program: string;
  programRe: RegExp;
  /** Set when the pattern is `program -flags… [rest]`. */
  flags?: { required: Set<string>; rest: RegExp };
}

const LONG_FLAGS: Record<string, string> = { recursive: "r", force: "f" };

/**
 * The short flag a long option stands for. GNU programs take any unambiguous start of a long
 * option (`rm --rec --for` is `rm --recursive --force`); a deny rule reads every start so.
 */
function longFlag(option: string): string | undefined {
  const name = option.slice(2).replace(/=.*$/, "");
  if (name === "") return undefined;
  for (const [long, short] of Object.entries(LONG_FLAGS)) if (long.startsWith(name)) return short;
  return undefined;
}

export function compileDenyPattern(pattern: string): DenyPattern {
  const text = pattern.trim().replace(/\s+/g, " ");
  const tokens = text.split(" ");
  const out: DenyPattern = {
    whole: globToRegExp(text),
    program: tokens[0],
    programRe: globToRegExp(tokens[0]),
  };
  let i = 1;
  const required = new Set<string>();
  let star = false;
  while (i < tokens.length && /^-[A-Za-z0-9]+\*?$/.test(tokens[i])) {
    star = tokens[i].endsWith("*");
    for (const ch of tokens[i].replace(/^-|\*$/g, "")) required.add(normalizeFlag(ch));
    i++;
    if (star) break;
  }
  if (required.size > 0) {
    const rest = tokens.slice(i).join(" ");
    // `rm -rf*` also covers `rm -rfv x`; `rm -rf /*` wants its operands to match `/*`.
    const restRe = star ? globToRegExp(rest ? `* ${rest}` : "*") : globToRegExp(rest);
    const alt = star && rest ? globToRegExp(rest) : null;
    out.flags = { required, rest: alt ? new RegExp(`${restRe.source}|${alt.source}`, "s") : restRe };
  }
  return out;
}

function normalizeFlag(ch: string): string {
  return ch === "R" ? "r" : ch;
}

/** An unknown program (`$X`) may be any program; a globbed one (`/bin/r?`) whatever it matches. */
function programMatches(word: DenyWord, p: DenyPattern): boolean {
  if (word.unknown) return true;
  if (p.programRe.test(word.value)) return true;
  return word.globs && !p.program.includes("*") && wordGlobToRegExp(word.value).test(p.program);
}

export function viewMatches(p: DenyPattern, view: DenyWord[]): boolean {
  const rest = view.slice(1).map((w) => w.value);
  if (p.whole.test([view[0].value, ...rest].join(" "))) return true;
  const stand = programMatches(view[0], p);
  if (stand && p.whole.test([p.program, ...rest].join(" "))) return true;
  if (!p.flags || !stand) return false;
  const have = new Set<string>();
  const operands: string[] = [];
  let options = true;
  for (const [k, w] of rest.entries()) {
    // A flag glued to an expansion (`-r$X`, `-r"$(…)"`) may carry any flag.
    if (options && w.startsWith("-") && view[k + 1].unknown) for (const r of p.flags.required) have.add(r);
    const long = w.startsWith("--") ? longFlag(w) : undefined;
    if (options && w === "--") options = false;
    else if (options && /^-[A-Za-z0-9]+$/.test(w)) for (const ch of w.slice(1)) have.add(normalizeFlag(ch));
    else if (options && long) have.add(long);
    else if (options && w.startsWith("--")) continue;
    else operands.push(w);
  }
  for (const r of p.flags.required) if (!have.has(r)) return false;
  return p.flags.rest.test(operands.join(" "));
}
