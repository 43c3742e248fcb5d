// What a deny rule sees of a bash command (R-TOOL-2): every simple command, also inside
// substitutions, here-documents fed to a shell, and the strings of `bash -c`, `sh -c`, `eval`;
// through wrappers (`sudo`, `env`, `timeout`, `xargs`, `exec`, …), leading `VAR=…`
// assignments and a program's directory; with brace expansion and `$IFS`-style splitting
// undone; and with short flags compared as a set (`rm -rf` = `rm -fr` = `rm -r -f`).
// A deny rule is a guard against mistakes and plain attempts, not a sandbox.
import { DenyAnalysisTooLarge, type DenyWord, toDenyWord } from "./bash-deny-match.js";
import { braceExpanded } from "./brace-expand.js";
import { parseShell, type SimpleCommand } from "./shell-parse.js";

/** Programs that run their remaining arguments (after their own options) as a command. */
const WRAPPERS = new Set([
  "sudo",
  "doas",
  "env",
  "nice",
  "ionice",
  "timeout",
  "command",
  "builtin",
  "exec",
  "xargs",
  "nohup",
  "time",
  "stdbuf",
  "setsid",
  "chroot",
  "taskset",
  "chrt",
  "unbuffer",
  "flock",
  "strace",
  "ltrace",
  "parallel",
  "busybox",
  "caffeinate",
  "systemd-run",
  "firejail",
  "torsocks",
  "proxychains",
  "proxychains4",
  "catchsegv",
  "valgrind",
  "fakeroot",
  "sg",
  "!",
  "{",
  "if",
  "then",
  "elif",
  "else",
  "while",
  "until",
  "do",
  "coproc",
  "ssh",
  "watch",
  "su",
  "runuser",
]);
/** Shells whose non-option arguments (the `-c` string) are command lines themselves. */
const SHELLS = new Set([
  "sh",
  "bash",
  "dash",
  "zsh",
  "ksh",
  "mksh",
  "ash",
  "yash",
  "fish",
  "tcsh",
  "csh",
  "rbash",
]);
/** Programs whose arguments, joined by spaces, are one command line. */
const STRING_RUNNERS = new Set(["eval", "watch", "su", "runuser", "script", "ssh", "alias"]);
/** Builtins that run text as commands. */
const EVALUATORS = new Set(["eval", "source", "."]);
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=/;
// Bounds on the analysis: a long script yields tens of thousands of views at most; past these
// the line counts as matching (deny stays on the safe side) rather than eating memory.
const MAX_VIEWS = 200_000;
const MAX_VIEW_WORDS = 4_000_000;
const MAX_DEPTH = 8;

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
  collectLine(command, 0, add);
  // A line bash would refuse runs nothing, but a deny rule stays on the safe side: the same
  // text read again with its quotes ignored.
  if (parseShell(command).errors.length) collectLine(command.replace(/['"`]/g, " "), 1, add);
  // Text a shell or eval will run may be built by other commands (`echo rm -rf / | sh`,
  // `bash -c "$(printf …)"`): then every argument of every command may be a command.
  if (views.some((v) => SHELLS.has(v[0].value) || EVALUATORS.has(v[0].value))) {
    for (const view of [...views]) {
      for (let j = 1; j < view.length; j++) {
        unwrap(view, j, 0, add, new Set());
        if (/\s/.test(view[j].value)) collectLine(view[j].value, 1, add);
      }
    }
  }
  return views;
}

function collectLine(command: string, depth: number, add: (v: DenyWord[]) => void): void {
  if (depth > MAX_DEPTH) throw new DenyAnalysisTooLarge();
  const parsed = parseShell(command);
  for (const cmd of parsed.commands) collectCommand(cmd, depth, add);
}

function collectCommand(cmd: SimpleCommand, depth: number, add: (v: DenyWord[]) => void): void {
  const plain = cmd.words.map(toDenyWord);
  const expanded = [plain, ...braceExpanded(cmd.words)];
  const variants = [...expanded, ...expanded.flatMap(splitOnExpansions)];
  for (const words of variants) unwrap(words, 0, depth, add, new Set());
  // Input fed to a shell (`bash <<EOF`, `sh <<< "…"`) is a command line too.
  const program = programOf(plain, 0);
  if (program !== null && SHELLS.has(basename(plain[program].value))) {
    for (const r of cmd.redirects) if (r.body !== undefined) collectLine(r.body, depth + 1, add);
  }
}

function basename(program: string): string {
  const slash = program.lastIndexOf("/");
  return slash >= 0 && slash < program.length - 1 ? program.slice(slash + 1) : program;
}

/** Index of the program word after leading assignments, or null when there is none. */
function programOf(words: DenyWord[], from: number): number | null {
  let i = from;
  while (i < words.length && !words[i].unknown && ASSIGNMENT.test(words[i].value)) i++;
  return i < words.length ? i : null;
}

/** Adds the command from `from` on, and every command a wrapper or shell in it would run. */
function unwrap(
  words: DenyWord[],
  from: number,
  depth: number,
  add: (v: DenyWord[]) => void,
  visited: Set<number>,
): void {
  if (visited.has(from)) return;
  visited.add(from);
  const at = programOf(words, from);
  if (at === null) return;
  const program = { ...words[at], value: basename(words[at].value) };
  const args = words.slice(at + 1);
  add([program, ...args]);
  for (const rest of afterGlobalOptions(args)) add([program, ...rest]);
  const name = program.value;
  if (WRAPPERS.has(name)) {
    // Options of wrappers differ (`sudo -u root`, `timeout -s KILL 5`, `xargs -I{}`): rather
    // than know each, every later word is tried as the start of the wrapped command.
    for (let j = at + 1; j < words.length; j++) {
      unwrap(words, j, depth, add, visited);
      if (/\s/.test(words[j].value)) collectLine(words[j].value, depth + 1, add);
    }
    if (name === "env") {
      for (const a of args)
        if (/^-\w*S/.test(a.value) || a.value.startsWith("--split-string")) {
          const s = a.value.replace(/^--split-string=?|^-\w*S/, "");
          if (s) collectLine(s, depth + 1, add);
        }
      const split = args.findIndex((a) => /^-\w*S$|^--split-string$/.test(a.value));
      if (split >= 0 && split + 1 < args.length) collectLine(args[split + 1].value, depth + 1, add);
    }
  } else if (SHELLS.has(name)) {
    for (const a of args)
      if (!a.value.startsWith("-") || /\s/.test(a.value)) collectLine(a.value, depth + 1, add);
  }
  if (STRING_RUNNERS.has(name)) {
    const text =
      name === "alias" ? args.map((a) => a.value.replace(/^[^=]*=/, "")) : args.map((a) => a.value);
    collectLine(text.join(name === "alias" ? "\n" : " "), depth + 1, add);
    for (const a of args) collectLine(a.value, depth + 1, add);
  }
  if (name === "find") {
    for (let j = at + 1; j < words.length; j++) {
      if (FIND_EXEC.has(words[j].value)) unwrap(words, j + 1, depth, add, visited);
    }
  }
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
    if (!w.unknown) {
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
