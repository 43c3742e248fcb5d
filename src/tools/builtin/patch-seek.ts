// Where a patch chunk's lines are in a file (R-EDIT-1): Codex's matching order, from openai/codex
// codex-rs/apply-patch/src/seek_sequence.rs — exact, then trailing whitespace ignored, then both
// ends trimmed, then common Unicode punctuation read as ASCII — each pass over the whole file from
// `start` before the next, looser one. With `eof` the search starts where the pattern would end
// the file.

/** Dashes, fancy quotes and odd spaces as their ASCII look-alikes, as Codex's `normalise`. */
const PUNCTUATION: Readonly<Record<string, string>> = {
  "\u2010": "-",
  "\u2011": "-",
  "\u2012": "-",
  "\u2013": "-",
  "\u2014": "-",
  "\u2015": "-",
  "\u2212": "-",
  "\u2018": "'",
  "\u2019": "'",
  "\u201A": "'",
  "\u201B": "'",
  "\u201C": '"',
  "\u201D": '"',
  "\u201E": '"',
  "\u201F": '"',
  "\u00A0": " ",
  "\u2002": " ",
  "\u2003": " ",
  "\u2004": " ",
  "\u2005": " ",
  "\u2006": " ",
  "\u2007": " ",
  "\u2008": " ",
  "\u2009": " ",
  "\u200A": " ",
  "\u202F": " ",
  "\u205F": " ",
  "\u3000": " ",
};
const PUNCTUATION_RE = new RegExp(`[${Object.keys(PUNCTUATION).join("")}]`, "g");

// Rust's trim()/trim_end() cut Unicode White_Space; JS's trim() cuts that plus the BOM, which a
// line never holds here (file-text.ts takes it off the first line).
const normalise = (s: string) => s.trim().replace(PUNCTUATION_RE, (c) => PUNCTUATION[c]);

export type MatchPass = "exact" | "trailing whitespace" | "surrounding whitespace" | "punctuation";

const PASSES: readonly [MatchPass, (s: string) => string][] = [
  ["exact", (s) => s],
  ["trailing whitespace", (s) => s.trimEnd()],
  ["surrounding whitespace", (s) => s.trim()],
  ["punctuation", normalise],
];

export function seekSequence(
  lines: readonly string[],
  pattern: readonly string[],
  start: number,
  eof: boolean,
): { index: number; pass: MatchPass } | undefined {
  if (pattern.length === 0) return { index: start, pass: "exact" };
  if (pattern.length > lines.length) return undefined;
  const from = eof ? lines.length - pattern.length : start;
  const last = lines.length - pattern.length;
  for (const [pass, norm] of PASSES) {
    const want = pattern.map(norm);
    for (let i = from; i <= last; i++) {
      let ok = true;
      for (let k = 0; k < want.length && ok; k++) ok = norm(lines[i + k]) === want[k];
      if (ok) return { index: i, pass };
    }
  }
  return undefined;
}
