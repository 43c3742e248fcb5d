// Where `((` and `$((` end, and whether bash reads them as arithmetic at all. Bash decides by
// the text alone: the parentheses must close with two adjacent `)`. Otherwise `((a) )` is a
// subshell inside a subshell and `$((a) )` a command substitution of one, and both run `a`.

export interface ArithmeticSpan {
  /** The expression between `((` and `))`. */
  inner: string;
  /** Position just after the closing `))` (or the end of the source when unclosed). */
  end: number;
  closed: boolean;
}

/** From just after `((` or `$((`: the arithmetic span, or null when bash reads commands instead. */
export function arithmeticSpan(src: string, pos: number): ArithmeticSpan | null {
  let open = 2;
  let lastToOne = -1;
  let i = pos;
  while (i < src.length) {
    const c = src[i];
    if (c === "\\") {
      i += 2;
      continue;
    }
    if (c === "'" || c === '"') {
      i = quoteEnd(src, i);
      continue;
    }
    if (c === "(") open++;
    else if (c === ")") {
      open--;
      if (open === 1) lastToOne = i;
      else if (open === 0)
        return lastToOne === i - 1 ? { inner: src.slice(pos, i - 1), end: i + 1, closed: true } : null;
    }
    i++;
  }
  return { inner: src.slice(pos), end: src.length, closed: false };
}

/** Position after the quoted string opening at `i` (the end of the source when unterminated). */
function quoteEnd(src: string, i: number): number {
  const quote = src[i];
  let j = i + 1;
  while (j < src.length && src[j] !== quote) j += quote === '"' && src[j] === "\\" ? 2 : 1;
  return Math.min(j + 1, src.length);
}
