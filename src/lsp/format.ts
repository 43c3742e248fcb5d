// How diagnostics and places read in a tool result (R-LSP-2/-3): `path:line:col` (1-based),
// `error[CODE]: message` each, at most 20 for the edited file, then "… N more".
import type { Diagnostic } from "vscode-languageserver-protocol";

export const MAX_LISTED = 20;
export const MAX_OTHER_FILES = 5;

export interface FileDiagnostics {
  /** As shown: relative to the workspace when inside it. */
  path: string;
  errors: Diagnostic[];
  warnings: number;
}

/** The server's own words; a message of several lines (pyright's, tsserver's chains) keeps them. */
const messageText = (text: string | { value: string }) =>
  (typeof text === "string" ? text : text.value).trimEnd();

export function diagnosticLine(path: string, d: Diagnostic): string {
  const level =
    d.severity === 2 ? "warning" : d.severity === 3 ? "info" : d.severity === 4 ? "hint" : "error";
  const code = d.code !== undefined && d.code !== "" ? `[${d.code}]` : "";
  return `${path}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${level}${code}: ${messageText(d.message)}`;
}

export const isError = (d: Diagnostic) => d.severity === undefined || d.severity === 1;
export const isWarning = (d: Diagnostic) => d.severity === 2;

/** Errors first by position; a key that says "the same error" across two checks of a file. */
export function sortByPosition(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
}

export const errorKey = (d: Diagnostic) =>
  `${d.range.start.line}:${d.range.start.character}:${String(d.code)}:${messageText(d.message)}`;

function listed(path: string, errors: Diagnostic[], max: number): string[] {
  const lines = sortByPosition(errors)
    .slice(0, max)
    .map((d) => diagnosticLine(path, d));
  if (errors.length > max) lines.push(`… ${errors.length - max} more`);
  return lines;
}

/**
 * What an edit's result gets: the edited files' errors, then errors it newly caused in other open
 * files (at most 5 files); "" when there are none, warnings only counted beside errors.
 */
export function editDiagnosticsText(
  edited: FileDiagnostics[],
  others: FileDiagnostics[],
  notes: string[],
): string {
  const lines: string[] = [];
  for (const file of edited) {
    if (file.errors.length === 0) continue;
    lines.push(...listed(file.path, file.errors, MAX_LISTED));
    if (file.warnings > 0)
      lines.push(`(${file.warnings} warning${file.warnings === 1 ? "" : "s"} in ${file.path} not listed)`);
  }
  const caused = others.filter((f) => f.errors.length > 0);
  if (caused.length > 0) {
    lines.push("Errors this edit caused in other open files:");
    for (const file of caused.slice(0, MAX_OTHER_FILES))
      lines.push(...listed(file.path, file.errors, MAX_LISTED));
    if (caused.length > MAX_OTHER_FILES) lines.push(`… ${caused.length - MAX_OTHER_FILES} more files`);
  }
  lines.push(...notes);
  return lines.length > 0 ? `Diagnostics:\n${lines.join("\n")}` : "";
}
