// The gate every allow rule and grant passes (R-TOOL-2): a bash line is covered only when it is
// plainly literal, recognized here by a small whitelist grammar of its own, never by reading it
// as bash does (an emulation that differs from bash in one corner is a way around the rule):
//
//   line     := { blank | newline | comment } command { separator command } [ ";" ]
//   separator:= ";" | "&&" | "||" | "|" | newline        (newlines and comments may follow && || |)
//   command  := { word | redirect }, at least one word
//   word     := { plain | '…' | "…" }   plain = A-Z a-z 0-9 _ - . , / : @ % + = ^, and inside a word #,
//               ~ right after a plain character other than = and : (`HEAD~1`), and a brace
//               group of plain characters with no `,` and no `..` after the word's start (`@{u}`);
//               "…" holds no $ ` \ ; the whole word `{}` (find's placeholder: bash never expands it)
//   redirect := [digit] ( ">" | ">>" | "<" ) word  |  [digit] ( ">&" | "<&" ) ( digits | "-" )
//
// Everything else — a backslash anywhere (a backslash-newline too), `$` in any form, backticks,
// unquoted `*` `?` `[` `]` `{` `}` `!` `(` `)`, `~` anywhere else, `&` alone, `;;`, `|&`, here-documents, `<>`,
// `>|`, `&>`, `>&file`, `{fd}>`, control or non-ASCII characters outside quotes — is refused,
// naming what it met. A refused line asks; the bash reader (../shell/) still explains and
// judges deny rules, but never lets a line run unasked.

export interface LiteralRedirect {
  /** The descriptor written before the operator (`2>`), or null. */
  fd: number | null;
  /** `dup` copies or closes a descriptor (`2>&1`, `>&-`); the others open `target` as a file. */
  op: ">" | ">>" | "<" | "dup";
  /** The target after quote removal: a path, or for `dup` the descriptor or `-`. */
  target: string;
}

export interface LiteralCommand {
  /** The words after quote removal; words[0] is the program. */
  words: string[];
  redirects: LiteralRedirect[];
  /** Commands of one pipeline share a number; the first command of the line has 0. */
  pipeline: number;
}

export type LiteralLine = { commands: LiteralCommand[] } | { refused: string };

const PLAIN = /[A-Za-z0-9_\-.,/:@%+=^]/;
const BLANK = /[ \t]/;
/** What ends an unquoted word in bash. */
const WORD_END = /[ \t\n;&|<>]/;

/** Reserved words: each makes a compound command, which is not in the grammar. */
const RESERVED = new Set(
  "! { } [[ ]] if then else elif fi case esac for select while until do done in function time coproc".split(
    " ",
  ),
);
/**
 * Builtins a rule may name: they run in bash itself, so one that evaluates an argument as a name,
 * a subscript or code (`eval`, `declare`, `read`, `printf -v`, `test -v 'a[$(…)]'`), or changes
 * what later names run (`alias`, `hash`, `enable`, `export PATH=…`), is not a program with literal
 * arguments. Every other builtin refuses the line.
 */
const SAFE_BUILTINS = new Set(["echo", "printf", "cd", "pwd", "true", "false", "test", "kill", "type"]);
const BUILTINS = new Set(
  (
    ". : [ alias bg bind break builtin caller cd command compgen complete compopt continue declare dirs " +
    "disown echo enable eval exec exit export false fc fg getopts hash help history jobs kill let local " +
    "logout mapfile popd printf pushd pwd read readarray readonly return set shift shopt source suspend " +
    "test times trap true type typeset ulimit umask unalias unset wait"
  ).split(" "),
);

class Refused extends Error {}

/** Reads a line as the literal grammar above, or says what it met outside that grammar. */
export function readLiteralLine(src: string): LiteralLine {
  try {
    const commands = new Reader(src).line();
    for (const cmd of commands) checkProgram(cmd.words);
    return { commands };
  } catch (err) {
    if (err instanceof Refused) return { refused: err.message };
    throw err;
  }
}

function refuse(what: string): never {
  throw new Refused(what);
}

function checkProgram(words: string[]): void {
  const [program, ...args] = words;
  if (RESERVED.has(program)) refuse(`the reserved word \`${program}\` (a compound command)`);
  if (program.includes("=")) refuse(`an assignment (\`${program}\`)`);
  if (/\s/.test(program)) refuse("a program word holding a space");
  if (BUILTINS.has(program) && !SAFE_BUILTINS.has(program))
    refuse(`the builtin \`${program}\` (it interprets its arguments)`);
  if (program === "printf" && args.some((a) => a.startsWith("-v")))
    refuse("`printf -v` (it assigns to a name)");
  if (program === "test" && args.some((a) => a === "-v" || a === "-R"))
    refuse(`\`test -v\` (it evaluates a name)`);
}

class Reader {
  private i = 0;
  private readonly commands: LiteralCommand[] = [];
  private pipeline = 0;

  constructor(private readonly src: string) {}

  line(): LiteralCommand[] {
    let cmd = this.startCommand();
    // After `&&`, `||` or `|` a command must follow; after `;` or a newline it may.
    let needCommand = false;
    for (;;) {
      this.skipBlanks();
      const c = this.src[this.i];
      if (c === undefined) break;
      if (c === "#") {
        // A comment runs to the end of its line (a backslash there continues nothing).
        while (this.i < this.src.length && this.src[this.i] !== "\n") this.i++;
        continue;
      }
      if (c === "\n") {
        this.i++;
        if (cmd.words.length || cmd.redirects.length) cmd = this.nextCommand(cmd, true);
        continue;
      }
      if (c === ";" || c === "&" || c === "|") {
        const op = this.separator();
        if (!cmd.words.length) refuse(`\`${op}\` with no command before it`);
        needCommand = op !== ";";
        cmd = this.nextCommand(cmd, op !== "|");
        continue;
      }
      if (c === "<" || c === ">") cmd.redirects.push(this.redirect(null));
      else this.wordOrRedirect(cmd);
      needCommand = false;
    }
    if (needCommand) refuse("a line that ends after `&&`, `||` or `|`");
    this.nextCommand(cmd, false);
    if (!this.commands.length) refuse("no command");
    return this.commands;
  }

  private startCommand(): LiteralCommand {
    return { words: [], redirects: [], pipeline: this.pipeline };
  }

  private nextCommand(cmd: LiteralCommand, newPipeline: boolean): LiteralCommand {
    if (cmd.redirects.length && !cmd.words.length) refuse("a redirect with no command");
    if (cmd.words.length) this.commands.push(cmd);
    if (newPipeline) this.pipeline++;
    return this.startCommand();
  }

  private skipBlanks(): void {
    while (BLANK.test(this.src[this.i] ?? "")) this.i++;
  }

  private separator(): string {
    const two = this.src.slice(this.i, this.i + 2);
    if (two === "&&" || two === "||") {
      this.i += 2;
      return two;
    }
    const c = this.src[this.i];
    if (c === "&") refuse(two === "&>" ? "`&>`" : "`&` (a command in the background)");
    if (two === "|&") refuse("`|&`");
    if (two === ";;" || two === ";&") refuse(`\`${two}\``);
    this.i++;
    return c;
  }

  /** A word; digits glued to `<` or `>` are that redirect's descriptor instead. */
  private wordOrRedirect(cmd: LiteralCommand): void {
    const start = this.i;
    const value = this.word();
    const next = this.src[this.i];
    if ((next === "<" || next === ">") && /^\d+$/.test(this.src.slice(start, this.i))) {
      if (value.length > 1) refuse(`the descriptor ${value} (only 0-9)`);
      cmd.redirects.push(this.redirect(Number(value)));
      return;
    }
    cmd.words.push(value);
  }

  private redirect(fd: number | null): LiteralRedirect {
    const c = this.src[this.i];
    const next = this.src[this.i + 1];
    if (next === "(") refuse(`\`${c}(…)\` (a process substitution)`);
    if (next === "&") {
      this.i += 2;
      const m = /^(\d+|-)(?=[ \t\n;&|<>]|$)/.exec(this.src.slice(this.i));
      if (!m) refuse(`\`${c}&\` to a file`);
      this.i += m[0].length;
      return { fd, op: "dup", target: m[0] };
    }
    let op: LiteralRedirect["op"];
    if (c === ">" && next === ">") op = ">>";
    else if (c === ">" && next === "|") refuse("`>|`");
    else if (c === "<" && next === "<") refuse("a here-document or here-string");
    else if (c === "<" && next === ">") refuse("`<>`");
    else op = c === ">" ? ">" : "<";
    this.i += op.length;
    this.skipBlanks();
    const at = this.src[this.i];
    if (at === undefined || at === "#" || WORD_END.test(at)) refuse(`\`${op}\` with no literal target`);
    const start = this.i;
    const target = this.word();
    if (/^\d+$/.test(this.src.slice(start, this.i)) && /[<>]/.test(this.src[this.i] ?? ""))
      refuse("a descriptor where a redirect's target should be");
    if (target === "") refuse("an empty redirect target");
    return { fd, op, target };
  }

  /** One word after quote removal; refuses at the first character outside the grammar. */
  private word(): string {
    const { src } = this;
    if (src.startsWith("{}", this.i) && endsBareBraces(src[this.i + 2])) {
      this.i += 2;
      return "{}";
    }
    let out = "";
    // The last character read, if it was unquoted and plain: `~` after one is literal.
    let plainBefore = "";
    for (;;) {
      const c = src[this.i];
      if (c === undefined || WORD_END.test(c)) return out;
      if (c === "'" || c === '"') {
        out += this.quoted(c);
        plainBefore = "";
        continue;
      }
      // A brace group inside a word with no comma and no `..` is never expanded (`stash@{0}`,
      // `@{u}`); at a word's start `{name}>` would be a descriptor variable.
      const group = c === "{" && out !== "" ? /^\{[A-Za-z0-9_@%+^\-./:]+\}/.exec(src.slice(this.i)) : null;
      if (group && !group[0].includes("..")) {
        out += group[0];
        plainBefore = "";
        this.i += group[0].length;
        continue;
      }
      // Bash expands `~` at a word's start and after `=` or `:` (`x=~`, `a=b:~`), never
      // after another character: `HEAD~1` stays as written.
      const literalTilde = c === "~" && plainBefore !== "" && !"=:".includes(plainBefore);
      if (PLAIN.test(c) || (c === "#" && out !== "") || literalTilde) {
        out += c;
        plainBefore = PLAIN.test(c) ? c : "";
        this.i++;
      } else refuse(describeChar(c));
    }
  }

  private quoted(q: "'" | '"'): string {
    const end = this.src.indexOf(q, this.i + 1);
    if (end < 0) refuse(`an unclosed ${q}`);
    const body = this.src.slice(this.i + 1, end);
    // No argument can hold NUL (the word breaks of rules.ts are NULs).
    if (body.includes("\u0000")) refuse("a NUL character");
    if (q === '"' && /[$`\\]/.test(body)) refuse("`$`, a backtick or a backslash inside double quotes");
    this.i = end + 1;
    return body;
  }
}

/** What may follow the word `{}`: bash leaves it as is before a blank, a separator or the end. */
function endsBareBraces(c: string | undefined): boolean {
  return c === undefined || /[ \t\n;&|]/.test(c);
}

function describeChar(c: string): string {
  if (c === "\\") return "a backslash";
  if (c === "$") return "`$` (an expansion)";
  if (c === "`") return "a backtick (a command substitution)";
  if ("*?[]".includes(c)) return `the glob character \`${c}\``;
  if ("{}".includes(c)) return `\`${c}\` (brace expansion)`;
  if (c === "~") return "`~` (tilde expansion)";
  if (c === "(" || c === ")") return `\`${c}\` (a subshell, function or pattern)`;
  if (c === "#") return "`#` where a word starts";
  const code = c.codePointAt(0) ?? 0;
  if (code < 0x20 || code === 0x7f) return `the control character U+${code.toString(16).padStart(4, "0")}`;
  if (code > 0x7e) return `the unquoted character ${JSON.stringify(c)}`;
  return `\`${c}\``;
}
