// The approval prompt (R-UI-8): each call of the batch shown whole (a command wrapped, an edit
// as a diff, a write as a preview; scrollable when taller than the room it has), answered per
// call, "always" saying what it covers, and keys that were typed before the prompt (or within
// GUARD_MS of it) never answer it.
import { count, sanitize, style, truncate, wrapLines } from "./ansi.js";
import { diffRows } from "./diff-view.js";
import type { CallPresentation } from "../engine/door/events.js";
import { previewRows } from "./tool-view.js";
import { argumentsObject } from "../vocab/messages.js";

/** Keys arriving this soon after the prompt appeared were meant for something else. */
export const GUARD_MS = 300;

export type ApprovalAnswer = "approved" | "denied" | "always";

export interface ApprovalCall {
  id: string;
  name: string;
  arguments: string;
  paths: string[];
  /** What answering "always" covers, as the approval policy words it (R-TOOL-2). */
  always?: string;
  reason?: string;
  /** How the call shows itself (its tool's title and preview). */
  presentation: CallPresentation;
}

export interface ApprovalState {
  calls: ApprovalCall[];
  /** One answer per call, in order; the first unanswered call is the one being asked. */
  answers: (ApprovalAnswer | undefined)[];
  /** When the prompt appeared (ms since epoch): keys before GUARD_MS after it are ignored. */
  shownAt: number;
  /** First body row shown of the current call, when it is taller than the room. */
  scroll: number;
}

export function newApproval(calls: ApprovalCall[], now: number): ApprovalState {
  return { calls, answers: calls.map(() => undefined), shownAt: now, scroll: 0 };
}

export function currentIndex(a: ApprovalState): number {
  const i = a.answers.indexOf(undefined);
  return i < 0 ? a.calls.length : i;
}

/** Answers the current call (or, with `all`, every call not yet answered). */
export function answer(a: ApprovalState, value: ApprovalAnswer, all = false): ApprovalState {
  const at = currentIndex(a);
  const answers = a.answers.map((v, i) => (v === undefined && (all || i === at) ? value : v));
  return { ...a, answers, scroll: 0 };
}

export function done(a: ApprovalState): boolean {
  return currentIndex(a) >= a.calls.length;
}

/** What "always" grants for this call, in words: the policy's description, else a fallback. */
export function alwaysScope(call: ApprovalCall): string {
  // The policy's own words, when the engine gives them: it knows what a grant covers.
  if (call.always) return call.always;
  if (call.paths.length > 0) return `${call.name} on ${call.paths.join(", ")} for the rest of this session`;
  return call.presentation.kind === "execute"
    ? "every bash command for the rest of this session"
    : `every ${call.name} call for the rest of this session`;
}

/** The whole of a call, as rows: a command wrapped, an edit as a diff, a write as a preview. */
export function bodyRows(call: ApprovalCall, cols: number): string[] {
  const args = argumentsObject(call.arguments);
  const inner = Math.max(10, cols - 4);
  if (!args) return wrapLines(style.red(`arguments are not valid JSON: ${sanitize(call.arguments)}`), inner);
  const preview = call.presentation.preview;
  if (preview?.type === "command")
    return wrapLines(sanitize(preview.command), inner).map((r) => style.cyan(r));
  if (preview?.type === "diff")
    return diffRows(preview.before, preview.after, inner, Number.POSITIVE_INFINITY).rows;
  if (preview?.type === "text")
    return [
      ...(preview.note ? [style.gray(sanitize(preview.note))] : []),
      ...previewRows(preview.text, inner, Number.POSITIVE_INFINITY, style.green, preview.line),
    ];
  return Object.entries(args).flatMap(([k, v]) =>
    wrapLines(
      `${style.gray(`${k}:`)} ${sanitize(typeof v === "string" ? v : JSON.stringify(v, null, 1))}`,
      inner,
    ),
  );
}

/** The prompt as at most `maxRows` rows (the body scrolls when it does not fit). */
export function approvalRows(a: ApprovalState, cols: number, maxRows: number, now: number): string[] {
  const at = Math.min(currentIndex(a), a.calls.length - 1);
  const call = a.calls[at];
  const many = a.calls.length > 1;
  const head = [
    style.yellow(
      style.bold(many ? `Allow tool call ${at + 1} of ${a.calls.length}?` : "Allow this tool call?"),
    ),
  ];
  // The calls of the batch, one row each, around the one being asked (a long batch scrolls).
  const others = many ? batchRows(a, at, cols) : [singleRow(call, cols)];
  const reason = call.reason ? wrapLines(style.yellow(`note: ${call.reason}`), cols) : [];
  const guard = now - a.shownAt < GUARD_MS;
  // A scope that quotes a huge command is cut here: the command itself is shown whole above.
  const scopeRows = wrapLines(
    `${style.bold("y")} allow  ${style.bold("n")} deny  ${style.bold("a")} always: ${sanitize(alwaysScope(call))}`,
    cols,
  );
  const maxScope = Math.max(2, Math.floor(maxRows / 4));
  const scope =
    scopeRows.length > maxScope
      ? [...scopeRows.slice(0, maxScope - 1), truncate(`${scopeRows[maxScope - 1]}…`, cols)]
      : scopeRows;
  const keys = [
    ...scope,
    ...(many
      ? wrapLines(`${style.bold("Y")} allow all remaining  ${style.bold("N")} deny all remaining`, cols)
      : []),
  ].map((r) => (guard ? style.gray(r) : r));
  const body = bodyRows(call, cols).map((r) => `  ${style.gray("│")} ${r}`);
  const fixed = head.length + others.length + reason.length + keys.length;
  const room = Math.max(1, maxRows - fixed - 1);
  let shown = body;
  let scrollHint: string[] = [];
  if (body.length > room) {
    const start = Math.max(0, Math.min(a.scroll, body.length - (room - 1)));
    shown = body.slice(start, start + room - 1);
    scrollHint = [
      style.gray(`  rows ${start + 1}-${start + shown.length} of ${body.length} · ↑/↓ PgUp/PgDn scroll`),
    ];
  }
  // The key hints are never the rows cut: without them the prompt cannot be answered knowingly.
  const top = [...head, ...others, ...shown, ...scrollHint, ...reason];
  return [...top.slice(0, Math.max(0, maxRows - keys.length)), ...keys].slice(-Math.max(1, maxRows));
}

const BATCH_ROWS = 5;

function singleRow(call: ApprovalCall, cols: number): string {
  // A command is the body below, whole: the row above names only the tool (R-UI-19: shown once).
  if (call.presentation.preview?.type === "command") return style.bold(call.name);
  const key = sanitize(call.presentation.title).split("\n")[0];
  return `${style.bold(call.name)}  ${style.gray(truncate(key, Math.max(1, cols - call.name.length - 2)))}`;
}

function batchRows(a: ApprovalState, at: number, cols: number): string[] {
  const start = Math.max(0, Math.min(at - 2, a.calls.length - BATCH_ROWS));
  const end = Math.min(a.calls.length, start + BATCH_ROWS);
  const rows = a.calls.slice(start, end).map((c, j) => {
    const i = start + j;
    const mark = i === at ? "▸" : a.answers[i] === undefined ? " " : a.answers[i] === "denied" ? "✗" : "✓";
    const key = sanitize(c.presentation.title).split("\n")[0];
    const row = truncate(`${mark} ${i + 1}. ${c.name}  ${key}`, cols);
    return i === at ? style.bold(row) : style.gray(row);
  });
  if (start > 0) rows.unshift(style.gray(`  … ${count(start, "earlier call")}`));
  if (end < a.calls.length) rows.push(style.gray(`  … ${count(a.calls.length - end, "more call")}`));
  return rows;
}

/** How far ↑/↓/PgUp/PgDn may scroll the current call's body. */
export function scrollBy(a: ApprovalState, delta: number, cols: number): ApprovalState {
  const call = a.calls[Math.min(currentIndex(a), a.calls.length - 1)];
  const max = Math.max(0, bodyRows(call, cols).length - 1);
  return { ...a, scroll: Math.max(0, Math.min(max, a.scroll + delta)) };
}
