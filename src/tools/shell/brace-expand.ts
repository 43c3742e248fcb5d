// Bash brace expansion of unquoted `{a,b}` and `{1..3}`, for deny rules: `{rm,-rf,/}` runs
// `rm -rf /`. Bounded: a word that would expand past the limit stops the analysis.
import { DenyAnalysisTooLarge, type DenyWord } from "../policy/bash-deny-match.js";
import type { ShellWord } from "./shell-types.js";

const MAX_BRACE_WORDS = 512;

/** Unquoted `{a,b}` and `{1..3}` as bash expands them (`{rm,-rf,/}` is `rm -rf /`). */
export function braceExpanded(words: ShellWord[]): DenyWord[][] {
  if (!words.some((w) => hasBraces(w))) return [];
  const out: DenyWord[] = [];
  for (const w of words) {
    const expanded = hasBraces(w) ? expandBraces(w.value, w.unquoted) : [w.value];
    for (const v of expanded) out.push({ value: v, unknown: w.expands, globs: w.globs });
    if (out.length > MAX_BRACE_WORDS) throw new DenyAnalysisTooLarge();
  }
  return [out];
}

/** Whether bash brace-expands the word (an unquoted `{` with a `,` or `..` and a `}` after it). */
export function hasBraces(w: ShellWord): boolean {
  const open = w.value.indexOf("{");
  return open >= 0 && w.unquoted[open] && /[,]|\.\./.test(w.value.slice(open)) && w.value.includes("}", open);
}

function expandBraces(value: string, unquoted: boolean[]): string[] {
  // Finds the first unquoted `{` with a matching `}` holding a top-level `,` or a `..` range.
  for (let i = 0; i < value.length; i++) {
    if (value[i] !== "{" || !unquoted[i]) continue;
    let depth = 0;
    const commas: number[] = [];
    for (let j = i; j < value.length; j++) {
      if (!unquoted[j]) continue;
      if (value[j] === "{") depth++;
      else if (value[j] === "}") {
        depth--;
        if (depth === 0) {
          const head = value.slice(0, i);
          const tail = value.slice(j + 1);
          const tailQ = unquoted.slice(j + 1);
          const body = value.slice(i + 1, j);
          let parts: string[];
          if (commas.length) {
            const cuts = [i, ...commas, j];
            parts = cuts.slice(0, -1).map((c, k) => value.slice(c + 1, cuts[k + 1]));
          } else {
            const range = /^(-?\d+|[A-Za-z])\.\.(-?\d+|[A-Za-z])$/.exec(body);
            if (!range) break;
            parts = expandRange(range[1], range[2]);
          }
          const rest = expandBraces(tail, tailQ);
          const out: string[] = [];
          for (const p of parts)
            for (const sub of expandBraces(p, Array(p.length).fill(true)))
              for (const r of rest) {
                out.push(head + sub + r);
                if (out.length > MAX_BRACE_WORDS) throw new DenyAnalysisTooLarge();
              }
          return out;
        }
      } else if (value[j] === "," && depth === 1) commas.push(j);
    }
  }
  return [value];
}

function expandRange(a: string, b: string): string[] {
  const num = /^-?\d+$/.test(a);
  const from = num ? Number(a) : a.charCodeAt(0);
  const to = num ? Number(b) : b.charCodeAt(0);
  if (Math.abs(to - from) > MAX_BRACE_WORDS) throw new DenyAnalysisTooLarge();
  const out: string[] = [];
  const step = from <= to ? 1 : -1;
  for (let v = from; step > 0 ? v <= to : v >= to; v += step)
    out.push(num ? String(v) : String.fromCharCode(v));
  return out;
}
