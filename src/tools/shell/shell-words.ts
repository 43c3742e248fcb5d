// Words of a bash command line, as bash reads them (see shell-parse.ts): quotes, escapes,
// ANSI-C strings, parameter expansions and every kind of substitution, whose inner command
// lists the subclass reads. Nothing is expanded or run.
import { type ArithmeticSpan, arithmeticSpan } from "./shell-arithmetic.js";
import { readAnsiC } from "./shell-ansi-c.js";
import type { ShellParse, ShellWord } from "./shell-types.js";

export type { ShellParse, ShellRedirect, ShellWord, SimpleCommand } from "./shell-types.js";

export const BLANK = new Set([" ", "\t"]);
const META = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")", "<", ">"]);
export const MAX_DEPTH = 32;

export class WordBuilder {
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

export abstract class WordReader {
  protected pos = 0;
  protected readonly out: ShellParse;

  constructor(
    protected readonly src: string,
    out: ShellParse | undefined,
    protected readonly depth: number,
  ) {
    this.out = out ?? { commands: [], substitutes: false, errors: [] };
  }

  /** Reads a command list of this source from `pos` up to `close`; returns the position after it. */
  protected abstract readListAt(pos: number, close: ")"): number;
  /**
   * Reads another text: a backtick body as a nested command list, or (`expandOnly`) text bash
   * expands as if double-quoted without running it as commands (arithmetic, a here-document body).
   */
  protected abstract readOther(text: string, expandOnly: boolean): void;
  /** `${…}` from just after `${`; `inDouble` when the expansion stands inside double quotes. */
  protected abstract parameter(w: WordBuilder, inDouble: boolean): void;

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

  protected ansiC(w: WordBuilder): void {
    const { text, end, closed } = readAnsiC(this.src, this.pos);
    if (!closed) this.error("unterminated $'");
    this.pos = end;
    w.add(text, false);
    w.started = true;
  }

  /** After an opening `"`; with `closing` false, the rest of the source as a here-document body (`"` is literal). */
  protected doubleQuoted(w: WordBuilder, closing = true): void {
    w.started = true;
    while (this.pos < this.src.length) {
      const c = this.src[this.pos];
      if (c === '"' && closing) {
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
    if (closing) this.error('unterminated "');
  }

  /** At `$`: a substitution, a parameter expansion, or a plain dollar sign. */
  protected dollar(w: WordBuilder, unquoted: boolean): void {
    const rest = this.src.slice(this.pos);
    const span = rest.startsWith("$((") ? arithmeticSpan(this.src, this.pos + 3) : null;
    if (span) {
      this.pos = span.end;
      this.arithmetic(w, span);
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
      this.parameter(w, !unquoted);
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

  protected substitution(close: ")", w: WordBuilder): void {
    this.out.substitutes = true;
    w.expands = true;
    const start = this.pos;
    if (this.depth >= MAX_DEPTH) {
      this.error("substitutions nested too deep");
      this.pos = this.src.length;
      return;
    }
    this.pos = this.readListAt(this.pos, close);
    w.add(`$(${this.src.slice(start, Math.max(start, this.pos - 1))})`, false);
  }

  protected backtick(w: WordBuilder, _unquoted: boolean): void {
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

  /**
   * `$((…))`: arithmetic, which never runs its text as a command, but expands it as if
   * double-quoted first (`'$(x)'` included), so the substitutions in it run. Arithmetic also
   * evaluates variable contents recursively: never allowable.
   */
  protected arithmetic(w: WordBuilder, span: ArithmeticSpan): void {
    this.out.substitutes = true;
    w.expands = true;
    if (!span.closed) this.error("unterminated $((");
    this.readNested(span.inner, true);
    w.add(`$((${span.inner}))`, false);
  }

  protected skipBalanced(open: string, close: string, w: WordBuilder): void {
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
    this.readNested(inner, true);
    w.expands = true;
    w.add(`$${open}${inner}${close}`, false);
  }

  protected readNested(text: string, expandOnly = false): void {
    if (this.depth >= MAX_DEPTH) {
      this.error("substitutions nested too deep");
      return;
    }
    this.readOther(text, expandOnly);
  }

  protected error(message: string): void {
    this.out.errors.push(message);
  }
}
