// grep's pattern is a JavaScript regex. Two readings of it are derived here, only for patterns
// whose every construct is understood; anything else (lookaround, backreferences, `\n`, named
// groups, astral characters, unusual escapes) gets `undefined` and the plain line-by-line search.
// - `rust`: the same language for ripgrep (ASCII `\d \w \s \b` spelled out, JS's `.` too).
// - `lineJs`: a JS pattern that can never match a newline, so one `gm` scan over a whole file
//   finds every line the original matches (a superset: each hit is confirmed on its line).
// - `literals`: when every top-level alternative is plain text, the texts (a file containing
//   none of them is skipped unread by the regex engine).

export interface PatternReadings {
  rust: string;
  lineJs: string;
  literals?: string[];
}

const JS_SPACE =
  "\\t\\n\\x0B\\x0C\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
const RUST_META = new Set([..."\\.+*?()|[]{}^$#&-~"]);
const CLASS_ESCAPES: Record<string, [string, string]> = {
  d: ["0-9", "\\d"],
  w: ["0-9A-Za-z_", "\\w"],
  s: [JS_SPACE, "\\s"],
};
const CONTROL: Record<string, string> = { t: "\\t", r: "\\r", f: "\\x0C", v: "\\x0B" };

class Unportable extends Error {}

function rustChar(c: string): string {
  const code = c.charCodeAt(0);
  if (code >= 0xd800 && code <= 0xdfff) throw new Unportable();
  if (code < 0x20 || code === 0x7f) return `\\x{${code.toString(16)}}`;
  return RUST_META.has(c) ? `\\${c}` : c;
}

/** A `\x..` or `\u....` escape at `i` (pointing at the x/u), as a character, and its length. */
function hexEscape(p: string, i: number): [string, number] {
  const m = p[i] === "x" ? /^x([0-9A-Fa-f]{2})/.exec(p.slice(i)) : /^u([0-9A-Fa-f]{4})/.exec(p.slice(i));
  if (!m) throw new Unportable();
  return [String.fromCharCode(Number.parseInt(m[1], 16)), m[0].length];
}

/** One escape outside or inside a class: [rust, js-that-avoids-newlines, literal char if plain]. */
function readEscape(p: string, i: number, inClass: boolean): [string, string, number, string?] {
  const e = p[i];
  if (e === undefined) throw new Unportable();
  if (e in CLASS_ESCAPES) {
    const [rust, js] = CLASS_ESCAPES[e];
    return inClass ? [rust, js, 1] : [`[${rust}]`, e === "s" ? "[^\\S\\n]" : js, 1];
  }
  const upper = e.toLowerCase();
  if (e !== upper && upper in CLASS_ESCAPES) {
    if (inClass) throw new Unportable();
    const [rust, js] = CLASS_ESCAPES[upper];
    return [`[^${rust}]`, e === "S" ? "\\S" : `[^${js}\\n]`, 1];
  }
  if (e === "b" || e === "B") return inClass ? ["\\x{8}", "\\b", 1] : [`(?-u:\\${e})`, `\\${e}`, 1];
  if (e in CONTROL) return [CONTROL[e], `\\${e}`, 1];
  if (e === "0" && !/[0-9]/.test(p[i + 1] ?? "")) return ["\\x{0}", "\\0", 1];
  if (e === "x" || e === "u") {
    const [c, len] = hexEscape(p, i);
    return [rustChar(c), p.slice(i - 1, i + len), len, c];
  }
  if (/[A-Za-z0-9]/.test(e) || e.charCodeAt(0) > 0x7e) throw new Unportable();
  return [rustChar(e), `\\${e}`, 1, e];
}

function readClass(p: string, start: number): [string, string, number] {
  let i = start + 1;
  const negated = p[i] === "^";
  if (negated) i++;
  if (p[i] === "]") throw new Unportable();
  let rust = "";
  let js = "";
  for (; i < p.length && p[i] !== "]"; i++) {
    const c = p[i];
    if (c === "\\") {
      const [r, j, len] = readEscape(p, i + 1, true);
      rust += r;
      js += j;
      i += len;
    } else if (c === "-" && p[i + 1] === "-") throw new Unportable();
    else {
      rust += c === "-" ? "-" : rustChar(c);
      js += c === "[" ? "\\[" : c;
    }
  }
  if (p[i] !== "]") throw new Unportable();
  const open = negated ? "[^" : "[";
  return [`${open}${rust}]`, `${open}${js}${negated ? "\\n" : ""}]`, i + 1 - start];
}

export function readPattern(p: string): PatternReadings | undefined {
  try {
    let rust = "";
    let lineJs = "";
    let depth = 0;
    const branches: (string | undefined)[] = [""];
    const notLiteral = () => {
      branches[branches.length - 1] = undefined;
    };
    for (let i = 0; i < p.length; ) {
      const c = p[i];
      if (c === "\\") {
        const [r, j, len, lit] = readEscape(p, i + 1, false);
        rust += r;
        lineJs += j;
        i += 1 + len;
        const last = branches.length - 1;
        if (lit !== undefined && depth === 0 && branches[last] !== undefined) branches[last] += lit;
        else notLiteral();
        continue;
      }
      if (c === "[") {
        const [r, j, len] = readClass(p, i);
        rust += r;
        lineJs += j;
        i += len;
        notLiteral();
        continue;
      }
      if (c === "(") {
        if (p[i + 1] === "?") {
          if (p[i + 2] !== ":") throw new Unportable();
          rust += "(?:";
          lineJs += "(?:";
          i += 3;
        } else {
          rust += "(";
          lineJs += "(";
          i++;
        }
        depth++;
        notLiteral();
        continue;
      }
      if (c === "{") {
        const q = /^\{\d+(,\d*)?\}/.exec(p.slice(i));
        if (q) {
          rust += q[0];
          lineJs += q[0];
          i += q[0].length;
          notLiteral();
          continue;
        }
      }
      i++;
      if (c === ")") depth--;
      if (c === "|" && depth === 0) {
        rust += c;
        lineJs += c;
        branches.push("");
        continue;
      }
      if (".^$*+?|()".includes(c)) {
        rust += c === "." ? "[^\\n\\r\\x{2028}\\x{2029}]" : c;
        lineJs += c;
        notLiteral();
        continue;
      }
      rust += rustChar(c);
      lineJs += c;
      const last = branches.length - 1;
      if (depth === 0 && branches[last] !== undefined) branches[last] += c;
    }
    const literals = branches.every((b) => b !== undefined && b !== "") ? (branches as string[]) : undefined;
    return { rust, lineJs, literals };
  } catch (err) {
    if (err instanceof Unportable) return undefined;
    throw err;
  }
}
