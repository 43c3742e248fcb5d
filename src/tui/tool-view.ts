// Tool activity as a person reads it (R-UI-11): one line per call (`bash  npm test`,
// `edit_file  src/a.ts`), then the tail of its output, edits as coloured diffs, errors in red.
// The raw JSON arguments are never shown.
import { count, sanitize, style, truncate } from "./ansi.js";
import type { CallPresentation } from "../engine/door/events.js";
import { outputTail } from "./output-view.js";
import { diffRows } from "./diff-view.js";
import { type ChildWork, foldRows, foldSummary } from "./child-fold.js";

export interface ToolRun {
  id: string;
  name: string;
  /** The raw JSON arguments as the model sent them. */
  arguments: string;
  /** How the call shows itself: its tool's title, kind and preview (engine `tool_call` event). */
  presentation: CallPresentation;
  outcome?: string;
  content?: string;
  /** When it began to run (its call, or its approval if one was asked), and how long it took. */
  started?: number;
  ms?: number;
  /** While it runs: the end of its output so far and how many lines that is (R-UI-18). */
  live?: { tail: string; lines: number };
  /** A `task` call's children's tool calls (child-fold.ts). */
  subagent?: ChildWork;
}

/** Output rows shown under a finished call before the rest is summarised. */
export const TAIL_ROWS = 4;
const DIFF_ROWS = 16;

function lineCount(text: string): number {
  return text === "" ? 0 : text.replace(/\n$/, "").split("\n").length;
}

/** `0.4s`, `12.3s`, `2m 05s`. */
export function duration(ms: number): string {
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
}

/** `bash  npm test` in one row: the key argument's first line, cut to the width. */
export function callLine(run: ToolRun, cols: number, bullet = "●"): string {
  const key = sanitize(run.presentation.title);
  const [first, ...more] = key.split("\n");
  const extra = more.length > 0 ? ` (+${count(more.length, "line")})` : "";
  const colour = run.outcome === undefined ? style.yellow : run.outcome === "ok" ? style.green : style.red;
  // A finished call says how long it took (R-UI-18), a running one how much it has printed;
  // both kept even when the argument is cut.
  const took =
    run.ms !== undefined
      ? ` · ${duration(run.ms)}`
      : run.live && run.outcome === undefined
        ? ` · ${count(run.live.lines, "line")}`
        : "";
  const line = truncate(
    `${colour(bullet)} ${style.bold(run.name)}  ${first}${style.gray(extra)}`,
    cols - took.length,
  );
  return `${line}${style.gray(took)}`;
}

/** The rows under a finished call: output tail, diff, or the error in red. */
export function resultRows(run: ToolRun, cols: number): string[] {
  const { kind, preview } = run.presentation;
  const content = sanitize((run.content ?? "").replace(/\n+$/, ""));
  const gutter = (rows: string[]) => rows.map((r, i) => `${style.gray(i === 0 ? "  ⎿ " : "    ")}${r}`);
  const inner = Math.max(10, cols - 4);
  if (run.outcome === "denied") return gutter([style.red(content.startsWith("denied") ? content : "denied")]);
  if (run.outcome !== "ok")
    return gutter(tail(content || run.outcome || "failed", inner).map((r) => style.red(r)));
  if (preview?.type === "diff") {
    const diff = diffRows(preview.before, preview.after, inner, DIFF_ROWS);
    return gutter([style.gray(`+${diff.added} -${diff.removed}`), ...diff.rows]);
  }
  if (preview?.type === "text")
    return gutter([
      style.gray(content.split("\n")[0] ?? ""),
      ...previewRows(preview.text, inner, preview.note ? DIFF_ROWS : 8, style.green, preview.line),
    ]);
  if (kind === "read" && run.presentation.locations.length > 0) {
    const n = lineCount(content);
    return gutter([style.gray(n > 1 ? `read ${n} lines` : truncate(content, inner))]);
  }
  return gutter(tail(content || "(no output)", inner).map((r) => style.gray(r)));
}

/** The last TAIL_ROWS wrapped rows, with a count of what was left out. */
export function tail(text: string, cols: number, rows = TAIL_ROWS): string[] {
  return outputTail(text, cols, rows);
}

/** New text shown as added lines (a write's preview, a line edit's replacement). */
export function previewRows(
  text: string,
  cols: number,
  maxRows: number,
  paint: (t: string) => string,
  firstLine: number,
): string[] {
  const lines = sanitize(text.replace(/\n$/, "")).split("\n");
  const width = String(firstLine + lines.length).length;
  const shown = lines
    .slice(0, maxRows)
    .map((l, i) => paint(truncate(`${String(firstLine + i).padStart(width)} + ${l}`, cols)));
  if (lines.length > maxRows) shown.push(style.gray(`… ${count(lines.length - maxRows, "more line")}`));
  return shown;
}

/** A finished call as transcript rows: its line and what came of it. */
export function toolRows(run: ToolRun, cols: number): string[] {
  const took = run.ms === undefined ? undefined : duration(run.ms);
  return [callLine(run, cols), ...foldSummary(run.subagent, took, cols), ...resultRows(run, cols)];
}

/** Rows of a running call's live tail: its last lines, each cut to one row so the height holds still. */
export const LIVE_TAIL_ROWS = 3;

/** A call in the live region: its line, and while it runs the last lines of its output (R-UI-18). */
export function runningRows(run: ToolRun, cols: number): string[] {
  const line = callLine(run, cols, "○");
  if (run.subagent && run.outcome === undefined) return [line, ...foldRows(run.subagent, cols)];
  if (!run.live || run.outcome !== undefined) return [line];
  const lines = sanitize(run.live.tail.replace(/\n+$/, "")).split("\n");
  // When the tail does not hold every line its first one may be cut mid-line: it is left out.
  const whole = run.live.lines > lines.length ? lines.slice(1) : lines;
  const shown = whole.slice(-LIVE_TAIL_ROWS);
  return [
    line,
    ...shown.map(
      (r, i) => `${style.gray(i === 0 ? "  ⎿ " : "    ")}${style.gray(truncate(r, Math.max(10, cols - 4)))}`,
    ),
  ];
}

/** The status line's count of sub-agents at work (R-AGENT-1): the `task` calls running now. */
export function runningAgents(running: readonly ToolRun[]): string {
  const n = running.filter((r) => r.name === "task" && r.outcome === undefined).length;
  return n === 0 ? "" : ` · ${n} agent${n === 1 ? "" : "s"} running`;
}
