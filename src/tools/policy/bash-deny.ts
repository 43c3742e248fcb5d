// What a deny rule sees of a bash command (R-TOOL-2): every simple command, also inside
// substitutions (arithmetic and single-quoted text that builtins evaluate included),
// here-documents fed to a shell, and the strings of `bash -c`, `sh -c`, `eval`, `trap`; through
// wrappers (`sudo`, `env`, `timeout`, `xargs`, `exec`, …), leading `VAR=…` assignments and a
// program's directory; with brace expansion and `$IFS`-style splitting undone, the values the
// line itself gives its variables, aliases and positional parameters put in (bash-deny-facts.ts),
// with what git's `-c` settings run (aliases, command-valued settings: bash-deny-git.ts) and what
// package runners run (`npx …`, `npm exec …`: bash-deny-runners.ts), and with short flags
// compared as a set (`rm -rf` = `rm -fr` = `rm -r -f`).
// A deny rule is a guard against mistakes and plain attempts, not a sandbox.
import { aliasExpanded, type LineFacts, lineFacts, substituted } from "./bash-deny-facts.js";
import { DenyAnalysisTooLarge, type DenyWord, toDenyWord } from "./bash-deny-match.js";
import {
  EVALUATORS,
  FIND_EXEC,
  KEYWORDS,
  POSITIONAL_WRAPPERS,
  SHELLS,
  STRING_RUNNERS,
  WRAPPERS,
} from "./bash-deny-programs.js";
import { gitConfigRuns } from "./bash-deny-git.js";
import { packageRunnerCommands } from "./bash-deny-runners.js";
import { decodedForms, scriptStrings } from "./bash-deny-text.js";
import { braceExpanded } from "../shell/brace-expand.js";
import { parseExpanded, parseShell, type SimpleCommand } from "../shell/shell-parse.js";

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
// Bounds on the analysis: a long script yields tens of thousands of views at most; past these
// the line counts as matching (deny stays on the safe side) rather than eating memory.
const MAX_VIEWS = 200_000;
const MAX_VIEW_WORDS = 4_000_000;
const MAX_DEPTH = 8;

interface Walk {
  add(view: DenyWord[]): void;
  facts: LineFacts;
}

/** Every way a deny rule may see the simple commands of a command line. */
export function denyViews(command: string): DenyWord[][] {
  const views: DenyWord[][] = [];
  const seen = new Set<string>();
  let words = 0;
  const add = (view: DenyWord[]) => {
    if (view.length === 0) return;
    const key = view.map((w) => `${w.unknown ? "\u0001" : ""}${w.value}`).join("\u0000");
    if (seen.has(key)) return;
    seen.add(key);
    words += view.length;
    if (views.length >= MAX_VIEWS || words > MAX_VIEW_WORDS) throw new DenyAnalysisTooLarge();
    views.push(view);
  };
  const parsed = parseShell(command);
  const walk: Walk = { add, facts: lineFacts(parsed, command) };
  collectLine(command, 0, walk);
  // A line bash would refuse runs nothing, but a deny rule stays on the safe side: the same
  // text read again with its quotes ignored.
  if (parsed.errors.length) collectLine(command.replace(/['"`]/g, " "), 1, walk);
  // Text a shell or eval will run may be built by other commands (`echo rm -rf / | sh`,
  // `bash -c "$(printf …)"`, `cat <<< '…' | bash`): then every argument of every command, and
  // every here-document or here-string of the line, may be a command.
  if (views.some((v) => SHELLS.has(v[0].value) || EVALUATORS.has(v[0].value))) {
    for (const view of [...views]) {
      for (let j = 1; j < view.length; j++) {
        unwrap(view, j, 0, walk, new Set());
        if (/\s/.test(view[j].value)) collectLine(view[j].value, 1, walk);
        for (const text of decodedForms(view[j].value)) collectLine(text, 1, walk);
      }
    }
    for (const cmd of parsed.commands)
      for (const r of cmd.redirects) if (r.body !== undefined) collectBody(r.body, 1, walk);
  }
  return views;
}

function collectLine(command: string, depth: number, walk: Walk): void {
  if (depth > MAX_DEPTH) throw new DenyAnalysisTooLarge();
  const parsed = parseShell(command);
  if (depth > 0) lineFacts(parsed, command, walk.facts);
  for (const cmd of parsed.commands) collectCommand(cmd, depth, walk);
}

/** A here-document body as a shell reads it: as written, and with its expansion escapes undone. */
function collectBody(body: string, depth: number, walk: Walk): void {
  collectLine(body, depth, walk);
  const unescaped = body.replace(/\\\n/g, "").replace(/\\([$`\\])/g, "$1");
  if (unescaped !== body) collectLine(unescaped, depth, walk);
}

function collectCommand(cmd: SimpleCommand, depth: number, walk: Walk): void {
  const plain = cmd.words.map(toDenyWord);
  const expanded = [plain, ...braceExpanded(cmd.words)];
  const variants = [
    ...expanded,
    ...expanded.flatMap(splitOnExpansions),
    ...expanded.flatMap((v) => substituted(v, walk.facts)),
  ];
  for (const words of variants) unwrap(words, 0, depth, walk, new Set());
  // Quoted text holding `$(…)` runs it when a builtin evaluates it as arithmetic or an array
  // subscript (`let 'a[$(…)]'`, `[[ -v 'a[$(…)]' ]]`, `x='a[$(…)]'; (( x ))`).
  for (const w of cmd.words)
    if (!w.expands && /\$\(|`/.test(w.value))
      for (const inner of parseExpanded(w.value).commands) collectCommand(inner, depth + 1, walk);
  // Input fed to a shell (`bash <<EOF`, `sh <<< "…"`) is a command line too.
  const program = programOf(plain, 0);
  if (program !== null && SHELLS.has(basename(plain[program].value))) {
    for (const r of cmd.redirects) if (r.body !== undefined) collectBody(r.body, depth + 1, walk);
  }
}

function basename(program: string): string {
  const slash = program.lastIndexOf("/");
  return slash >= 0 && slash < program.length - 1 ? program.slice(slash + 1) : program;
}

/** Whether bash reads the word as an assignment (its value may expand: `x=$(…)` is one). */
function assigns(w: DenyWord): boolean {
  return w.assignment ?? (!w.unknown && ASSIGNMENT.test(w.value));
}

/** Index of the program word after leading assignments, or null when there is none. */
function programOf(words: DenyWord[], from: number): number | null {
  let i = from;
  while (i < words.length && assigns(words[i])) i++;
  return i < words.length ? i : null;
}

/**
 * Where a wrapper's command may start: after its options and their values, assignments (`env`),
 * numbers and durations (`timeout 5`, `nice -n 10`) and, for some, one positional argument. A
 * word whose value is only known when it runs counts as a program only there, so that
 * `sudo wc -l "$f"` is not read as running `$f`.
 */
function commandPositions(words: DenyWord[], at: number, name: string): Set<number> {
  const open = new Set<number>();
  let positional = POSITIONAL_WRAPPERS.has(name) ? 1 : 0;
  let afterOption = false;
  for (let j = at + 1; j < words.length; j++) {
    open.add(j);
    const w = words[j];
    if (w.value.startsWith("-")) {
      afterOption = true;
      continue;
    }
    if (assigns(w) || (!w.unknown && /^\d+(\.\d+)?[smhd]?$/.test(w.value))) {
      afterOption = false;
      continue;
    }
    // Right after an option a word may be its value or the command; look one further.
    if (afterOption) afterOption = false;
    else if (positional > 0) positional--;
    else break;
  }
  return open;
}

/** Adds the command from `from` on, and every command a wrapper or shell in it would run. */
function unwrap(
  words: DenyWord[],
  from: number,
  depth: number,
  walk: Walk,
  visited: Set<number>,
  aliased: Set<string> = new Set(),
): void {
  if (visited.has(from)) return;
  visited.add(from);
  const at = programOf(words, from);
  if (at === null) return;
  const { add } = walk;
  // An alias the line defines stands for its text (bash expands each alias once).
  const alias = aliased.has(words[at].value) ? null : aliasExpanded(words, at, walk.facts);
  if (alias) unwrap(alias, from, depth, walk, new Set(), new Set([...aliased, words[at].value]));
  const program = { ...words[at], value: basename(words[at].value) };
  const args = words.slice(at + 1);
  add([program, ...args]);
  for (const rest of afterGlobalOptions(args)) add([program, ...rest]);
  const name = program.value;
  if (KEYWORDS.has(name) && !program.unknown) {
    unwrap(words, at + 1, depth, walk, visited, aliased);
  } else if (name === "function" && !program.unknown) {
    // `function name { body; }`: the body's first command follows the name (and its `{`).
    unwrap(words, at + 2, depth, walk, visited, aliased);
  } else if (WRAPPERS.has(name)) {
    // Options of wrappers differ (`sudo -u root`, `timeout -s KILL 5`, `xargs -I{}`): rather
    // than know each, every later word is tried as the start of the wrapped command.
    const open = commandPositions(words, at, name);
    for (let j = at + 1; j < words.length; j++) {
      if (open.has(j) || !(words[j].unknown || words[j].globs))
        unwrap(words, j, depth, walk, visited, aliased);
      if (/\s/.test(words[j].value)) collectLine(words[j].value, depth + 1, walk);
    }
    if (name === "env") envSplitString(args, depth, walk);
  } else if (SHELLS.has(name)) {
    for (const a of args)
      if (!a.value.startsWith("-") || /\s/.test(a.value)) collectLine(a.value, depth + 1, walk);
  }
  if (STRING_RUNNERS.has(name)) {
    const text =
      name === "alias" ? args.map((a) => a.value.replace(/^[^=]*=/, "")) : args.map((a) => a.value);
    collectLine(text.join(name === "alias" ? "\n" : " "), depth + 1, walk);
    for (const a of args) collectLine(a.value, depth + 1, walk);
  }
  for (const text of scriptStrings(
    name,
    args.map((a) => a.value),
  ))
    collectLine(text, depth + 1, walk);
  const runner = packageRunnerCommands(name, args);
  for (const line of runner.lines) collectLine(line, depth + 1, walk);
  if (runner.from !== null) unwrap(words, at + 1 + runner.from, depth, walk, visited, aliased);
  if (name === "git" && !program.unknown) {
    const runs = gitConfigRuns(args, walk.facts.gitAliases);
    for (const line of runs.lines) collectLine(line, depth + 1, walk);
    for (const rest of runs.expanded) unwrap([program, ...rest], 0, depth + 1, walk, new Set(), aliased);
  }
  if (name === "find") {
    for (let j = at + 1; j < words.length; j++) {
      if (FIND_EXEC.has(words[j].value)) unwrap(words, j + 1, depth, walk, visited, aliased);
    }
  }
}

/** `env -S 'cmd args'` / `--split-string`: the string is a command line. */
function envSplitString(args: DenyWord[], depth: number, walk: Walk): void {
  for (const a of args)
    if (/^-\w*S/.test(a.value) || a.value.startsWith("--split-string")) {
      const s = a.value.replace(/^--split-string=?|^-\w*S/, "");
      if (s) collectLine(s, depth + 1, walk);
    }
  const split = args.findIndex((a) => /^-\w*S$|^--split-string$/.test(a.value));
  if (split >= 0 && split + 1 < args.length) collectLine(args[split + 1].value, depth + 1, walk);
}

/**
 * The arguments after leading options and their values (`git -C dir --no-pager push` is also
 * seen as `git push`), so `git push*` is not passed by options before the subcommand.
 */
function afterGlobalOptions(args: DenyWord[]): DenyWord[][] {
  const out: DenyWord[][] = [];
  let i = 0;
  while (i < args.length && i < 8 && args[i].value.startsWith("-") && args[i].value !== "--") {
    i++;
    out.push(args.slice(i));
    // The option's value, when it takes one as the next word.
    if (i < args.length && !args[i].value.startsWith("-")) {
      i++;
      out.push(args.slice(i));
    }
  }
  return out.filter((rest) => rest.length > 0);
}

/**
 * Unquoted expansions may split a word (`rm${IFS}-rf${IFS}/` runs `rm -rf /`): each is read as
 * a word break, and a word that was only an expansion stays as an unknown word.
 */
function splitOnExpansions(words: DenyWord[]): DenyWord[][] {
  if (!words.some((w) => w.unknown)) return [];
  const out: DenyWord[] = [];
  const expansion = /\$\{[^}]*\}|\$\([^)]*\)\)?|`[^`]*`|\$[A-Za-z_][A-Za-z0-9_]*|\$[0-9@*#?$!-]/g;
  for (const w of words) {
    // Bash never splits an assignment's value.
    if (!w.unknown || assigns(w)) {
      out.push(w);
      continue;
    }
    const pieces = w.value
      .split(expansion)
      .flatMap((p) => p.split(/\s+/))
      .filter((p) => p !== "");
    if (pieces.length === 0) out.push(w);
    // The first piece may be glued to what an expansion yields (`r$X` may be `rm`).
    pieces.forEach((p, k) => {
      out.push({ value: p, unknown: k === 0, globs: /[*?[]/.test(p) });
    });
  }
  return [out];
}
