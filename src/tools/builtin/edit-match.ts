// Where an edit_file edit lands (R-EDIT-2, R-EDIT-4). The exact, unique string is the first try
// (§5); it is matched on the file's plain view (file-text.ts), so `\n` text matches `\r\n` lines
// and a BOM does not stop a match at the start. When the exact text is nowhere, three careful
// relaxations follow, each on whole lines and each used only when exactly one place fits:
// trailing whitespace ignored, then a uniform indentation shift (the new text re-indented by the
// same shift), then runs of blanks read as one. Two or more places are an error naming their lines.
import { escapeRegExp } from "../../config/wildcard.js";
import { plainView, replaceViewSpans } from "./file-text.js";

export interface EditSpec {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

export type EditOutcome =
  | { ok: true; raw: string; count: number; relaxation?: string }
  | { ok: false; message: string };

type Relaxation = "trailing whitespace ignored" | "indentation shifted" | "runs of blanks read as one";

interface Span {
  start: number;
  end: number;
  text: string;
}

const lf = (s: string) => s.replace(/\r\n/g, "\n");
const leading = (s: string) => /^[ \t]*/.exec(s)![0];
const blank = (s: string) => s.trim() === "";
const collapse = (s: string) =>
  leading(s) +
  s
    .slice(leading(s).length)
    .replace(/[ \t]+/g, " ")
    .trimEnd();

/** Every place `old` stands in `view`, not overlapping. */
function exactSpans(view: string, old: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (let i = view.indexOf(old); i !== -1; i = view.indexOf(old, i + old.length))
    out.push({ start: i, end: i + old.length });
  return out;
}

export function applyEdit(raw: string, edit: EditSpec, shown: string): EditOutcome {
  const pv = plainView(raw);
  const old = lf(edit.old_string);
  const neu = lf(edit.new_string);
  const exact = exactSpans(pv.view, old);
  if (exact.length > 1 && !edit.replace_all) {
    return {
      ok: false,
      message:
        `old_string matches ${exact.length} times in ${shown}. Add surrounding lines to make it unique, ` +
        "or set replace_all: true.",
    };
  }
  if (exact.length > 0) {
    const spans = (edit.replace_all ? exact : exact.slice(0, 1)).map((s) => ({ ...s, text: neu }));
    return { ok: true, raw: replaceViewSpans(raw, pv, spans), count: spans.length };
  }
  const relaxed = relaxedMatch(pv.view, old, neu);
  if (!relaxed) {
    return {
      ok: false,
      message: `old_string not found in ${shown} (0 matches). Check whitespace and indentation, or read the file again.`,
    };
  }
  if ("lines" in relaxed) {
    return {
      ok: false,
      message:
        `old_string not found exactly in ${shown}; with ${relaxed.relaxation} it fits ${relaxed.lines.length} ` +
        `places (lines ${relaxed.lines.join(", ")}). Add surrounding lines to make it unique.`,
    };
  }
  return {
    ok: true,
    raw: replaceViewSpans(raw, pv, [relaxed.span]),
    count: 1,
    relaxation: relaxed.relaxation,
  };
}

type Relaxed = { span: Span; relaxation: Relaxation } | { lines: number[]; relaxation: Relaxation };

/** The line-by-line comparison of a pass: the re-indenting of the new text when the window fits. */
type Fit = (file: readonly string[], old: readonly string[]) => ((text: string) => string) | null;

const trailing: Fit = (file, old) =>
  file.every((f, k) => f.trimEnd() === old[k].trimEnd()) ? (t) => t : null;

/** A uniform indentation shift: the same prefix added to (or taken from) every non-blank line. */
function shifted(norm: (s: string) => string, allowNone: boolean): Fit {
  return (file, old) => {
    const first = old.findIndex((o) => !blank(o));
    if (first === -1) return null;
    const f0 = leading(file[first]);
    const o0 = leading(old[first]);
    const deeper = f0.startsWith(o0);
    // One line indented with other characters (a tab for spaces): the file's indentation is taken.
    if (!deeper && !o0.startsWith(f0))
      return old.length === 1 && fitsLine(norm, file[0], old[0]) ? swapIndent(o0, f0) : null;
    const shift = deeper ? f0.slice(o0.length) : o0.slice(f0.length);
    if (shift === "" && !allowNone) return null;
    for (let k = 0; k < old.length; k++) {
      if (blank(old[k]) || blank(file[k])) {
        if (blank(old[k]) !== blank(file[k])) return null;
        continue;
      }
      const want = deeper ? shift + norm(old[k]) : norm(old[k]).slice(shift.length);
      if (!deeper && !norm(old[k]).startsWith(shift)) return null;
      if (norm(file[k]) !== want) return null;
    }
    return (text) =>
      text
        .split("\n")
        .map((line) => {
          if (blank(line) || shift === "") return line;
          if (deeper) return shift + line;
          return line.startsWith(shift) ? line.slice(shift.length) : line.slice(leading(line).length);
        })
        .join("\n");
  };
}

function fitsLine(norm: (s: string) => string, file: string, old: string): boolean {
  return norm(file).slice(leading(file).length) === norm(old).slice(leading(old).length);
}

/** New lines indented like the old one get the file's indentation instead. */
const swapIndent = (from: string, to: string) => (text: string) =>
  text
    .split("\n")
    .map((line) => (line.startsWith(from) && !blank(line) ? to + line.slice(from.length) : line))
    .join("\n");

const PASSES: readonly [Relaxation, Fit][] = [
  ["trailing whitespace ignored", trailing],
  ["indentation shifted", shifted((s) => s.trimEnd(), false)],
  ["runs of blanks read as one", shifted(collapse, true)],
];

function relaxedMatch(view: string, oldText: string, newText: string): Relaxed | null {
  const fileLines = view.split("\n");
  const starts: number[] = [];
  let at = 0;
  for (const line of fileLines) {
    starts.push(at);
    at += line.length + 1;
  }
  // Blank lines before the text (aider's "missing leading whitespace including blank line") are
  // not part of what is looked for; the new text loses the same ones.
  const lead = /^(?:[ \t]*\n)+/.exec(oldText)?.[0] ?? "";
  const neu = lead && newText.startsWith(lead) ? newText.slice(lead.length) : newText;
  const old = oldText.slice(lead.length);
  const withNewline = old.endsWith("\n");
  const oldLines = (withNewline ? old.slice(0, -1) : old).split("\n");
  if (oldLines.every(blank)) return null;
  // The last window line must be followed by a newline when old_string ends with one.
  const lastStart = fileLines.length - oldLines.length - (withNewline ? 1 : 0);
  for (const [relaxation, fitsWindow] of PASSES) {
    const found: { i: number; indent: (t: string) => string }[] = [];
    for (let i = 0; i <= lastStart; i++) {
      const indent = fitsWindow(fileLines.slice(i, i + oldLines.length), oldLines);
      if (indent) found.push({ i, indent });
    }
    if (found.length > 1) return { lines: found.map((f) => f.i + 1), relaxation };
    if (found.length === 1) {
      const { i, indent } = found[0];
      const last = i + oldLines.length - 1;
      const end = starts[last] + fileLines[last].length + (withNewline ? 1 : 0);
      return { span: { start: starts[i], end, text: indent(neu) }, relaxation };
    }
  }
  return inlineRuns(view, old, neu);
}

/** One line's fragment with other runs of blanks (`a  =  1` for `a = 1`), bounded as whole words. */
function inlineRuns(view: string, old: string, neu: string): Relaxed | null {
  const core = old.trim();
  if (core === "" || old.includes("\n") || !/[ \t]/.test(core)) return null;
  const body = core
    .split(/[ \t]+/)
    .map(escapeRegExp)
    .join("[ \\t]+");
  const before = /^\w/.test(core) ? "(?<!\\w)" : "";
  const after = /\w$/.test(core) ? "(?!\\w)" : "";
  const re = new RegExp(`${before}${body}${after}`, "g");
  const hits = [...view.matchAll(re)];
  const relaxation: Relaxation = "runs of blanks read as one";
  if (hits.length === 0) return null;
  const lineOf = (i: number) => view.slice(0, i).split("\n").length;
  if (hits.length > 1) return { lines: hits.map((h) => lineOf(h.index)), relaxation };
  const h = hits[0];
  return {
    span: { start: h.index, end: h.index + h[0].length, text: old === core ? neu : neu.trim() },
    relaxation,
  };
}
