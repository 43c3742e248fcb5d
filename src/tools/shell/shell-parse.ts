// A bash-faithful reader of command lines for permission rules (R-TOOL-2). It does not run or
// expand anything; it finds what bash would see: simple commands (split on `;`, `&`, `&&`,
// `||`, `|`, `|&`, newlines and subshell parentheses), their words after quote removal, their
// redirections, here-document bodies, and every command substitution (`$(…)`, backticks,
// `<(…)`, `>(…)`, `$((…))`), whose inner commands are read recursively. `#` starts a comment
// only at the start of a word, as in bash. Anything it cannot read is reported in `errors`;
// reading goes on past the error so deny rules still see as much as possible.
import { arithmeticSpan } from "./shell-arithmetic.js";
import { ParameterReader } from "./shell-parameter.js";
import {
  BLANK,
  MAX_DEPTH,
  type ShellParse,
  type ShellRedirect,
  type ShellWord,
  WordBuilder,
} from "./shell-words.js";

export type { ShellParse, ShellRedirect, ShellWord, SimpleCommand } from "./shell-types.js";

interface PendingHeredoc {
  redirect: ShellRedirect;
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
}

export class ShellReader extends ParameterReader {
  private pending: PendingHeredoc[] = [];

  constructor(
    src: string,
    out?: ShellParse,
    private readonly nested = false,
    depth = 0,
  ) {
    super(src, out, depth);
  }

  static parse(src: string): ShellParse {
    const reader = new ShellReader(src);
    reader.readList(null);
    return reader.out;
  }

  static parseExpanded(src: string): ShellParse {
    const reader = new ShellReader(src);
    reader.readNested(src, true);
    return reader.out;
  }

  protected readListAt(pos: number, close: ")"): number {
    const inner = new ShellReader(this.src, this.out, true, this.depth + 1);
    inner.pos = pos;
    inner.readList(close);
    return inner.pos;
  }

  protected readOther(text: string, expandOnly: boolean): void {
    if (this.depth >= MAX_DEPTH) {
      this.error("substitutions nested too deep");
      return;
    }
    const reader = new ShellReader(text, this.out, true, this.depth + 1);
    if (expandOnly) reader.doubleQuoted(new WordBuilder(), false);
    else reader.readList(null);
  }

  /** Reads commands until `close` or the end. */
  private readList(close: ")" | null): void {
    let words: ShellWord[] = [];
    let redirects: ShellRedirect[] = [];
    let parens = 0;
    const flush = () => {
      if (words.length || redirects.length) this.out.commands.push({ words, redirects, nested: this.nested });
      words = [];
      redirects = [];
    };
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      const two = this.src.slice(this.pos, this.pos + 2);
      if (BLANK.has(c)) {
        this.pos++;
      } else if (two === "\\\n") {
        this.pos += 2;
      } else if (c === "#") {
        while (this.pos < this.src.length && this.src[this.pos] !== "\n") this.pos++;
      } else if (c === "\n") {
        this.pos++;
        flush();
        this.readHeredocBodies();
      } else if (c === ")") {
        this.pos++;
        flush();
        if (parens > 0) parens--;
        else if (close === ")") return;
        else this.error("unmatched )");
      } else if (two === "((" && arithmeticSpan(this.src, this.pos + 2)) {
        // `((…))` is arithmetic: its text is no command, but the substitutions in it run, and
        // it may run substitutions held in variables: never allowable. (`((a) )` is two
        // subshells and falls through to the parentheses below.)
        flush();
        const span = arithmeticSpan(this.src, this.pos + 2)!;
        this.pos = span.end;
        this.out.substitutes = true;
        if (!span.closed) this.error("unterminated ((");
        this.readNested(span.inner, true);
      } else if (c === "(") {
        this.pos++;
        flush();
        parens++;
      } else if (this.atRedirect()) {
        const op = this.readRedirectOp();
        this.readRedirect(op, redirects);
      } else if (c === ";" || c === "&" || c === "|") {
        this.pos += this.operatorLength();
        flush();
      } else {
        const word = this.readWord();
        if (word) words.push(word);
      }
    }
    flush();
    if (this.pending.length) this.error("here-document without its body");
    if (close) this.error(`missing ${close}`);
    if (parens > 0) this.error("missing )");
  }

  private operatorLength(): number {
    const three = this.src.slice(this.pos, this.pos + 3);
    if (three === ";;&") return 3;
    const two = this.src.slice(this.pos, this.pos + 2);
    if ([";;", ";&", "&&", "||", "|&"].includes(two)) return 2;
    return 1;
  }

  /** At `<`, `>`, `&>`, or a file-descriptor number / `{name}` right before one. */
  private atRedirect(): boolean {
    const rest = this.src.slice(this.pos);
    if (/^[<>][(]/.test(rest)) return false;
    return /^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})?(<|>)/.test(rest) || rest.startsWith("&>");
  }

  private readRedirectOp(): string {
    const m = /^(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})?(&>>|&>|<<<|<<-|<<|<>|<&|>>|>\||>&|<|>)/.exec(
      this.src.slice(this.pos),
    )!;
    this.pos += m[0].length;
    return m[2];
  }

  private readRedirect(op: string, redirects: ShellRedirect[]): void {
    while (BLANK.has(this.src[this.pos] ?? "")) this.pos++;
    const start = this.pos;
    const target = this.readWord();
    if (!target) {
      this.error(`${op} without a target`);
      return;
    }
    const redirect: ShellRedirect = { op, target };
    if (op === "<<" || op === "<<-") {
      const raw = this.src.slice(start, this.pos);
      this.pending.push({
        redirect,
        delimiter: target.value,
        stripTabs: op === "<<-",
        expands: !/['"\\]/.test(raw),
      });
    } else if (op === "<<<") {
      redirect.body = target.value;
    }
    redirects.push(redirect);
  }

  /** After a newline: the bodies of the here-documents opened on the line just ended. */
  private readHeredocBodies(): void {
    const docs = this.pending;
    this.pending = [];
    for (const doc of docs) {
      const lines: string[] = [];
      let closed = false;
      while (this.pos < this.src.length) {
        const raw = this.heredocLine(doc.expands);
        const line = doc.stripTabs ? raw.replace(/^\t+/, "") : raw;
        if (line === doc.delimiter) {
          closed = true;
          break;
        }
        lines.push(line);
      }
      if (!closed) this.error(`here-document not closed by ${doc.delimiter}`);
      const body = lines.join("\n");
      doc.redirect.body = body;
      // An unquoted delimiter means the body is expanded: substitutions in it run.
      if (doc.expands) this.scanExpansions(body);
    }
  }

  /**
   * One line of a here-document body. With an unquoted delimiter bash joins a line ending in
   * an odd number of backslashes with the next before comparing it with the delimiter, so
   * `EO\` + `F` ends the body there.
   */
  private heredocLine(joinContinued: boolean): string {
    let line = "";
    while (this.pos < this.src.length) {
      const end = this.src.indexOf("\n", this.pos);
      const raw = this.src.slice(this.pos, end < 0 ? this.src.length : end);
      this.pos = end < 0 ? this.src.length : end + 1;
      const trailing = /\\*$/.exec(raw)![0].length;
      if (!joinContinued || trailing % 2 === 0 || end < 0) return line + raw;
      line += raw.slice(0, -1);
    }
    return line;
  }

  /** Finds the substitutions inside text that bash expands as if double-quoted. */
  private scanExpansions(text: string): void {
    this.readNested(text, true);
  }
}

export function parseShell(command: string): ShellParse {
  return ShellReader.parse(command);
}

/** The substitutions of a text bash expands as if double-quoted (arithmetic, an array subscript). */
export function parseExpanded(text: string): ShellParse {
  return ShellReader.parseExpanded(text);
}
