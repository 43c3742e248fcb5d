// Parameter expansions `${…}` as bash reads them (see shell-words.ts): scanned to the closing
// brace, reading every substitution inside. Single quotes in the word keep their extent (a `}`
// inside them does not close), but within double quotes (`"${x:-'…'}"`, a here-document body)
// bash expands what they hold: `$(…)` there runs.
import { WordBuilder, WordReader } from "./shell-words.js";

const NAME = /^(#?[A-Za-z_][A-Za-z0-9_]*|#?[0-9]+|[@*#?$!-])($|[:#%/^,@[-]|[-=?+])/;

export abstract class ParameterReader extends WordReader {
  protected parameter(w: WordBuilder, inDouble: boolean): void {
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
        const quoted = this.src.slice(this.pos + 1, end < 0 ? this.src.length : end);
        this.pos = end < 0 ? this.src.length : end + 1;
        // An array subscript is arithmetic: bash expands what its single quotes hold, too.
        if (inDouble || this.src.slice(start, this.pos).includes("[")) this.readNested(quoted, true);
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
    else if (!NAME.test(text)) this.error(`bad substitution: \${${text}}`);
    // `${x@P}` expands x as a prompt string, which runs the substitutions x holds.
    if (/@P\s*$/.test(text)) this.out.substitutes = true;
    w.add(`\${${text}}`, false);
  }
}
