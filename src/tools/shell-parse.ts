// A bash-faithful reader of command lines for permission rules (R-TOOL-2). It does not run or
// expand anything; it finds what bash would see: simple commands (split on `;`, `&`, `&&`,
// `||`, `|`, `|&`, newlines and subshell parentheses), their words after quote removal, their
// redirections, here-document bodies, and every command substitution (`$(…)`, backticks,
// `<(…)`, `>(…)`, `$((…))`), whose inner commands are read recursively. `#` starts a comment
// only at the start of a word, as in bash. Anything it cannot read is reported in `errors`;
// reading goes on past the error so deny rules still see as much as possible.

export interface ShellWord {
  /** After quote removal; expansions kept as written (`$HOME`, `${x}`, `$(…)`). */
  value: string;
  /** Holds an unquoted or double-quoted expansion (its value is not known before running). */
  expands: boolean;
  /** Holds an unquoted glob character (`*`, `?`, `[`). */
  globs: boolean;
  /** Indexes into `value` that came from unquoted text (brace expansion and splitting apply only there). */
  unquoted: boolean[];
}

export interface ShellRedirect {
  op: string;
  /** The target word; for a here-document, its body. */
  target: ShellWord;
  /** A here-document or here-string body (fed to the command's stdin). */
  body?: string;
}

export interface SimpleCommand {
  words: ShellWord[];
  redirects: ShellRedirect[];
  /** Read from inside a substitution, not at the top level of the line. */
  nested: boolean;
}

export interface ShellParse {
  commands: SimpleCommand[];
  /** Holds a command, process or arithmetic substitution, or a `${…@P}` prompt expansion. */
  substitutes: boolean;
  /** Why the line could not be read faithfully; empty when it could. */
  errors: string[];
}

const BLANK = new Set([" ", "\t"]);
const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
const MAX_DEPTH = 32;
const ANSI_C: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  e: "\x1b",
  E: "\x1b",
  f: "\f",
  v: "\v",
};

interface PendingHeredoc {
  redirect: ShellRedirect;
  delimiter: string;
  stripTabs: boolean;
  expands: boolean;
}

class WordBuilder {
  value = "";
  expands = false;
  globs = false;
  unquoted: boolean[] = [];
  started = false;
  add(text: string, unquoted: boolean): void {
    this.value += text;
    for (let i = 0; i < text.length; i++) this.unquoted.push(unquoted);
    this.started = true;
  }
  word(): ShellWord {
    return { value: this.value, expands: this.expands, globs: this.globs, unquoted: this.unquoted };
  }
}

export class ShellReader {
  private pos = 0;
  private readonly out: ShellParse;
  private pending: PendingHeredoc[] = [];

  constructor(
    private readonly src: string,
    out?: ShellParse,
    private readonly nested = false,
    private readonly depth = 0,
  ) {
    this.out = out ?? { commands: [], substitutes: false, errors: [] };
  }

  static parse(src: string): ShellParse {
    const reader = new ShellReader(src);
    reader.readList(null);
    return reader.out;
  }

  /** Reads commands until `close` (`)` or a backtick) or the end. Returns the end position. */
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
      } else if (two === "((") {
        // `((…))` is arithmetic (which may run substitutions held in variables) or, when it
        // does not parse as such, two subshells: never allowable, and read for deny rules.
        flush();
        this.pos += 2;
        this.out.substitutes = true;
        const inner = this.balanced(2);
        this.readNested(inner);
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
        const end = this.src.indexOf("\n", this.pos);
        const raw = this.src.slice(this.pos, end < 0 ? this.src.length : end);
        this.pos = end < 0 ? this.src.length : end + 1;
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

  /** Finds the substitutions inside text that bash expands as if double-quoted. */
  private scanExpansions(text: string): void {
    const reader = new ShellReader(`"${text.replace(/["]/g, '\\"')}"`, this.out, true, this.depth + 1);
    reader.readWord();
  }

  /** One word, up to an unquoted metacharacter; `null` when there is none here. */
  readWord(): ShellWord | null {
    const w = new WordBuilder();
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (META.has(c)) {
        // `<(` and `>(` are process substitutions and belong to the word.
        if ((c === "<" || c === ">") && this.src[this.pos + 1] === "(") {
          this.pos += 2;
          this.substitution(")", w);
          continue;
        }
        break;
      }
      if (c === "\\") {
        const next = this.src[this.pos + 1];
        this.pos += 2;
        if (next === undefined) this.error("trailing backslash");
        else if (next !== "\n") w.add(next, false);
        w.started = true;
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        if (end < 0) {
          this.error("unterminated '");
          w.add(this.src.slice(this.pos + 1), false);
          this.pos = this.src.length;
        } else {
          w.add(this.src.slice(this.pos + 1, end), false);
          this.pos = end + 1;
        }
        w.started = true;
      } else if (c === "$" && this.src[this.pos + 1] === "'") {
        this.pos += 2;
        this.ansiC(w);
      } else if (c === "$" && this.src[this.pos + 1] === '"') {
        this.pos += 1;
      } else if (c === '"') {
        this.pos++;
        this.doubleQuoted(w);
      } else if (c === "$") {
        this.dollar(w, true);
      } else if (c === "`") {
        this.pos++;
        this.backtick(w, true);
      } else {
        if (c === "*" || c === "?" || c === "[") w.globs = true;
        w.add(c, true);
        this.pos++;
      }
    }
    return w.started ? w.word() : null;
  }

  private ansiC(w: WordBuilder): void {
    let text = "";
    while (this.pos < this.src.length && this.src[this.pos] !== "'") {
      const c = this.src[this.pos];
      if (c !== "\\") {
        text += c;
        this.pos++;
        continue;
      }
      const n = this.src[this.pos + 1] ?? "";
      const hex = /^x([0-9a-fA-F]{1,2})/.exec(this.src.slice(this.pos + 1));
      const oct = /^([0-7]{1,3})/.exec(this.src.slice(this.pos + 1));
      const uni = /^[uU]([0-9a-fA-F]{1,8})/.exec(this.src.slice(this.pos + 1));
      if (hex) {
        text += String.fromCharCode(Number.parseInt(hex[1], 16));
        this.pos += 1 + hex[0].length;
      } else if (oct) {
        text += String.fromCharCode(Number.parseInt(oct[1], 8) & 0xff);
        this.pos += 1 + oct[0].length;
      } else if (uni) {
        const cp = Number.parseInt(uni[1], 16);
        text += cp <= 0x10ffff ? String.fromCodePoint(cp) : "";
        this.pos += 1 + uni[0].length;
      } else {
        text += ANSI_C[n] ?? n;
        this.pos += 2;
      }
    }
    if (this.pos >= this.src.length) this.error("unterminated $'");
    this.pos++;
    w.add(text, false);
    w.started = true;
  }

  private doubleQuoted(w: WordBuilder): void {
    w.started = true;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === '"') {
        this.pos++;
        return;
      }
      if (c === "\\") {
        const next = this.src[this.pos + 1];
        if (next !== undefined && '$`"\\\n'.includes(next)) {
          if (next !== "\n") w.add(next, false);
          this.pos += 2;
        } else {
          w.add("\\", false);
          this.pos++;
        }
      } else if (c === "$") {
        this.dollar(w, false);
      } else if (c === "`") {
        this.pos++;
        this.backtick(w, false);
      } else {
        w.add(c, false);
        this.pos++;
      }
    }
    this.error('unterminated "');
  }

  /** At `$`: a substitution, a parameter expansion, or a plain dollar sign. */
  private dollar(w: WordBuilder, unquoted: boolean): void {
    const rest = this.src.slice(this.pos);
    if (rest.startsWith("$((")) {
      this.pos += 3;
      this.arithmetic(w);
    } else if (rest.startsWith("$(")) {
      this.pos += 2;
      this.substitution(")", w);
    } else if (rest.startsWith("$[")) {
      // The old arithmetic form: evaluated like $((…)), so it can run substitutions too.
      this.pos += 2;
      this.out.substitutes = true;
      this.skipBalanced("[", "]", w);
    } else if (rest.startsWith("${")) {
      this.pos += 2;
      this.braceExpansion(w);
    } else {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(rest);
      if (m) {
        w.add(m[0], unquoted);
        w.expands = true;
        this.pos += m[0].length;
      } else {
        w.add("$", unquoted);
        this.pos++;
      }
    }
  }

  private substitution(close: ")", w: WordBuilder): void {
    this.out.substitutes = true;
    w.expands = true;
    const start = this.pos;
    if (this.depth >= MAX_DEPTH) {
      this.error("substitutions nested too deep");
      this.pos = this.src.length;
      return;
    }
    const inner = new ShellReader(this.src, this.out, true, this.depth + 1);
    inner.pos = this.pos;
    inner.readList(close);
    this.pos = inner.pos;
    w.add(`$(${this.src.slice(start, Math.max(start, this.pos - 1))})`, false);
  }

  private backtick(w: WordBuilder, _unquoted: boolean): void {
    this.out.substitutes = true;
    w.expands = true;
    let inner = "";
    let closed = false;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === "\\" && "$`\\".includes(this.src[this.pos + 1] ?? "")) {
        inner += this.src[this.pos + 1];
        this.pos += 2;
      } else if (c === "`") {
        this.pos++;
        closed = true;
        break;
      } else {
        inner += c;
        this.pos++;
      }
    }
    if (!closed) this.error("unterminated `");
    this.readNested(inner);
    w.add(`\`${inner}\``, false);
  }

  private arithmetic(w: WordBuilder): void {
    // Arithmetic evaluates variable contents recursively and may run substitutions: never allowable.
    this.out.substitutes = true;
    w.expands = true;
    const inner = this.balanced(2);
    this.readNested(inner);
    w.add(`$((${inner}))`, false);
  }

  /** The text up to where `depth` open parentheses close; the position moves past them. */
  private balanced(depth: number): string {
    const start = this.pos;
    let open = depth;
    while (this.pos < this.src.length && open > 0) {
      const c = this.src[this.pos];
      if (c === "(") open++;
      else if (c === ")") open--;
      this.pos++;
    }
    if (open > 0) {
      this.error("unterminated ((");
      return this.src.slice(start);
    }
    return this.src.slice(start, Math.max(start, this.pos - depth));
  }

  private skipBalanced(open: string, close: string, w: WordBuilder): void {
    const start = this.pos;
    let depth = 1;
    while (this.pos < this.src.length && depth > 0) {
      const c = this.src[this.pos];
      if (c === open) depth++;
      else if (c === close) depth--;
      this.pos++;
    }
    if (depth > 0) this.error(`unterminated $${open}`);
    const inner = this.src.slice(start, Math.max(start, this.pos - 1));
    this.readNested(inner);
    w.expands = true;
    w.add(`$${open}${inner}${close}`, false);
  }

  /** `${…}`: scanned to its closing brace, reading any substitution inside. */
  private braceExpansion(w: WordBuilder): void {
    w.expands = true;
    const inner = new WordBuilder();
    let closed = false;
    const start = this.pos;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === "}") {
        this.pos++;
        closed = true;
        break;
      }
      if (c === "\\") {
        inner.add(this.src[this.pos + 1] ?? "", false);
        this.pos += 2;
      } else if (c === "'") {
        const end = this.src.indexOf("'", this.pos + 1);
        this.pos = end < 0 ? this.src.length : end + 1;
      } else if (c === '"') {
        this.pos++;
        this.doubleQuoted(inner);
      } else if (c === "$") {
        this.dollar(inner, false);
      } else if (c === "`") {
        this.pos++;
        this.backtick(inner, false);
      } else {
        inner.add(c, false);
        this.pos++;
      }
    }
    const text = this.src.slice(start, closed ? this.pos - 1 : this.pos);
    if (!closed) this.error("unterminated ${");
    else if (!/^(#?[A-Za-z_][A-Za-z0-9_]*|#?[0-9]+|[@*#?$!-])($|[:#%/^,@[-]|[-=?+])/.test(text))
      this.error(`bad substitution: \${${text}}`);
    // `${x@P}` expands x as a prompt string, which runs the substitutions x holds.
    if (/@P\s*$/.test(text)) this.out.substitutes = true;
    w.add(`\${${text}}`, false);
  }

  private readNested(text: string): void {
    if (this.depth >= MAX_DEPTH) {
      this.error("substitutions nested too deep");
      return;
    }
    const reader = new ShellReader(text, this.out, true, this.depth + 1);
    reader.readList(null);
  }

  private error(message: string): void {
    this.out.errors.push(message);
  }
}

export function parseShell(command: string): ShellParse {
  return ShellReader.parse(command);
}
