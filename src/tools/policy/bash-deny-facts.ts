// What one command line tells about its own names (for deny rules, bash-deny.ts): the plain
// values it assigns to variables (`x=rm; $x -rf /`, `v=-rf; rm $v /`, `printf -v`, `read <<<`),
// the aliases and `hash -p` names it defines, and what its positional parameters may hold
// (`set -- …`, the calls of functions it defines: `f() { rm "$@"; }; f -rf /`). A deny rule then
// also sees each command with those values put in. Order and control flow are ignored: any
// value the line gives a name may be the one it holds.
import { type DenyWord, isAssignment } from "./bash-deny-match.js";
import type { ShellParse, ShellWord } from "../shell/shell-types.js";

export interface LineFacts {
  vars: Map<string, Set<string>>;
  /** Alias (and `hash -p`, `BASH_ALIASES[…]`, `BASH_CMDS[…]`) names and the text each stands for. */
  aliases: Map<string, string>;
  /** Git aliases a `git config alias.NAME VALUE` of the line defines (names lower-cased, as git reads them). */
  gitAliases: Map<string, string>;
  /** Argument lists `$@`, `$1`… may hold. */
  positional: string[][];
  /** Characters an `IFS=` assignment in the line adds to word splitting. */
  ifs: string;
}

const ASSIGN = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=(.*)$/s;
const MAX_VALUES = 8;

const plain = (w: ShellWord) => !w.expands;

export function emptyFacts(): LineFacts {
  return { vars: new Map(), aliases: new Map(), gitAliases: new Map(), positional: [], ifs: "" };
}

export function lineFacts(parsed: ShellParse, src: string, into: LineFacts = emptyFacts()): LineFacts {
  const functions = definedFunctions(src);
  // `BASH_ALIASES[zz]='rm -rf'`, `BASH_ALIASES+=([zz]='rm -rf')`, `declare -A BASH_ALIASES=(…)`
  // define aliases, `BASH_CMDS[zz]=/bin/rm` what a name runs: every `[key]=value` of such a
  // line is read as one (a deny rule only gains views).
  const tables = /BASH_(ALIASES|CMDS)/.test(src);
  for (const cmd of parsed.commands) {
    const words = cmd.words;
    if (tables)
      for (const w of words) {
        const m = /^(?:BASH_(?:ALIASES|CMDS))?\[([^\]]+)\]\+?=(.*)$/s.exec(w.value);
        if (m) into.aliases.set(m[1], m[2]);
      }
    // Assignments anywhere (after `then`, `time`, `declare`…): a value too many only adds views.
    for (const w of words) if (isAssignment(w)) assign(into, w);
    let i = 0;
    while (i < words.length && isAssignment(words[i])) i++;
    if (i >= words.length) continue;
    const program = words[i].value;
    const args = words.slice(i + 1);
    if (program === "printf" && args[0]?.value === "-v" && args.length >= 3 && args.slice(1).every(plain))
      addVar(into, args[1].value, args[2].value);
    if (program === "read") {
      const name = args.filter((a) => !a.value.startsWith("-")).at(-1);
      const body = cmd.redirects.find((r) => r.op === "<<<" || r.op === "<<")?.body;
      if (name && body !== undefined) addVar(into, name.value, body.trim());
    }
    if (program === "alias")
      for (const a of args) {
        const m = /^([^=]+)=(.*)$/s.exec(a.value);
        if (m) into.aliases.set(m[1], m[2]);
      }
    if (program === "hash" && args[0]?.value === "-p" && args.length >= 3)
      into.aliases.set(args[2].value, args[1].value);
    if (program === "set" && args.length > 0 && (args[0].value === "--" || !args[0].value.startsWith("-")))
      into.positional.push(args.filter((a, k) => k > 0 || a.value !== "--").map((a) => a.value));
    if (functions.has(program)) into.positional.push(args.map((a) => a.value));
    if (program.slice(program.lastIndexOf("/") + 1) === "git") gitConfigAlias(args, into);
  }
  return into;
}

/** `git [-C dir] config [--local|--add|…] alias.NAME VALUE`: later `git NAME` runs VALUE. */
function gitConfigAlias(args: ShellWord[], into: LineFacts): void {
  const config = args.findIndex((a) => a.value === "config");
  if (config < 0) return;
  const key = args.findIndex((a, k) => k > config && /^alias\../i.test(a.value));
  if (key < 0 || key + 1 >= args.length) return;
  into.gitAliases.set(args[key].value.slice("alias.".length).toLowerCase(), args[key + 1].value);
}

function assign(facts: LineFacts, w: ShellWord): void {
  const m = ASSIGN.exec(w.value);
  if (!m) return;
  const [, name, append, value] = m;
  if (w.expands && value.includes("$")) return;
  if (name === "IFS") facts.ifs += value;
  if (append) for (const before of [...(facts.vars.get(name) ?? [])]) addVar(facts, name, before + value);
  addVar(facts, name, value);
}

function addVar(facts: LineFacts, name: string, value: string): void {
  const values = facts.vars.get(name) ?? new Set<string>();
  if (values.size < MAX_VALUES) values.add(value);
  facts.vars.set(name, values);
}

/** Names defined as functions in the text: `name () …` and `function name`. */
function definedFunctions(src: string): Set<string> {
  const out = new Set<string>();
  for (const m of src.matchAll(/(?:^|[\s;&|(){}])([A-Za-z_][\w.:-]*)\s*\(\s*\)/g)) out.add(m[1]);
  for (const m of src.matchAll(/(?:^|[\s;&|(){}])function\s+([A-Za-z_][\w.:-]*)/g)) out.add(m[1]);
  return out;
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*])\}|\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*])/g;

/**
 * The command's words with the line's known values put in for its expansions, split as bash
 * would split them; empty when no expansion has a known value. A bounded number of variants.
 */
export function substituted(words: DenyWord[], facts: LineFacts): DenyWord[][] {
  if (!words.some((w) => w.unknown)) return [];
  let variants: DenyWord[][] = [[]];
  let changed = false;
  for (const w of words) {
    const texts = w.unknown ? valuesOf(w.value, facts) : [];
    if (texts.length === 0) {
      variants = variants.map((v) => [...v, w]);
      continue;
    }
    changed = true;
    const next: DenyWord[][] = [];
    for (const v of variants) for (const text of texts) next.push([...v, ...splitWords(text, facts.ifs, w)]);
    variants = next.slice(0, 32);
  }
  return changed ? variants : [];
}

/** `$(echo …)` / `` `echo …` `` of plain words: its output is known. */
const ECHO = /\$\(\s*echo((?:\s+[^\s()$`;&|<>]+)*)\s*\)|`\s*echo((?:\s+[^\s()$`;&|<>]+)*)\s*`/g;

function valuesOf(text: string, facts: LineFacts): string[] {
  let out = [text.replace(ECHO, (_, a, b) => (a ?? b).trim())];
  for (const m of text.matchAll(REFERENCE)) {
    const name = m[1] ?? m[2];
    const values = known(name, facts);
    if (values.length === 0) continue;
    out = out.flatMap((t) => values.map((v) => t.split(m[0]).join(v))).slice(0, 16);
  }
  return out[0] === text && out.length === 1 ? [] : out;
}

function known(name: string, facts: LineFacts): string[] {
  if (name === "@" || name === "*") return facts.positional.map((args) => args.join(" "));
  if (/^[1-9]$/.test(name)) return facts.positional.map((args) => args[Number(name) - 1] ?? "");
  return [...(facts.vars.get(name) ?? [])];
}

function splitWords(text: string, ifs: string, like: DenyWord): DenyWord[] {
  const chars = ` \t\n${ifs}`.replace(/[\\\]^-]/g, "\\$&");
  const parts = text.split(new RegExp(`[${chars}]+`)).filter((p) => p !== "");
  const unknown = (p: string) => /\$/.test(p);
  return (parts.length ? parts : [text]).map((p) => ({ value: p, unknown: unknown(p), globs: like.globs }));
}

/** The alias a command's program stands for, as words put before its arguments. */
export function aliasExpanded(words: DenyWord[], at: number, facts: LineFacts): DenyWord[] | null {
  const text = facts.aliases.get(words[at]?.value ?? "");
  if (text === undefined) return null;
  const head = text
    .split(/\s+/)
    .filter(Boolean)
    .map((value) => ({ value, unknown: false, globs: /[*?[]/.test(value) }));
  return [...words.slice(0, at), ...head, ...words.slice(at + 1)];
}
