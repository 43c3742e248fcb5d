// One result row of the benchmark table and how it is judged against its target.
import type { Stats } from "./harness.js";

export type Unit = "ms" | "MB" | "MB/s" | "KB" | "B" | "x" | "tokens" | "count" | "%";

export interface Target {
  /** `ratio`: median ÷ baseline median ≤ value; `max`: median ≤ value; `min`: median ≥ value. */
  kind: "ratio" | "max" | "min";
  value: number;
  text: string;
}

export interface Row {
  name: string;
  metric: string;
  unit: Unit;
  stats: Stats;
  baseline?: { name: string; stats: Stats };
  target: Target;
  /** Extra figures worth keeping in results.json (not judged). */
  notes?: Record<string, number | string>;
}

export interface JudgedRow extends Row {
  ratio: number | null;
  pass: boolean;
}

export function judge(row: Row): JudgedRow {
  const ratio = row.baseline ? row.stats.median / row.baseline.stats.median : null;
  const t = row.target;
  const pass =
    t.kind === "ratio"
      ? ratio !== null && ratio <= t.value
      : t.kind === "max"
        ? row.stats.median <= t.value
        : row.stats.median >= t.value;
  return { ...row, ratio, pass };
}

function fmt(n: number): string {
  if (n >= 100) return n.toFixed(0);
  if (n >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

export function table(rows: JudgedRow[]): string {
  const head = [
    "benchmark",
    "metric",
    "median",
    "min",
    "max",
    "baseline (median)",
    "ratio",
    "target",
    "result",
  ];
  const body = rows.map((r) => [
    r.name,
    r.metric,
    `${fmt(r.stats.median)} ${r.unit}`,
    fmt(r.stats.min),
    fmt(r.stats.max),
    r.baseline ? `${r.baseline.name} ${fmt(r.baseline.stats.median)} ${r.unit}` : "-",
    r.ratio === null ? "-" : `${r.ratio.toFixed(2)}x`,
    r.target.text,
    r.pass ? "pass" : "FAIL",
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i].length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}
