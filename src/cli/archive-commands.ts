// `tern sessions`, `tern export`, `tern fork`, `tern metrics`: read the archive and the ledger.
import { stripControlSequences } from "../workspace/terminal-text.js";
import {
  exportArchive,
  forkArchive,
  LedgerDamagedError,
  type LedgerRow,
  type ModelTotals,
  readMetrics,
  type SessionTotals,
  sessionsOf,
} from "../workspace/session-queries.js";
import { SessionNotFoundError } from "../engine/door/errors.js";
import { formatTable } from "./table.js";
import { indented, underParents } from "./session-tree.js";
import { ternHome } from "./setup.js";
import { UsageError } from "./usage-error.js";
import { money } from "../vocab/cost.js";
import { jsonText } from "../vocab/json-text.js";

function userErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    // Unknown ids, ambiguous prefixes and unreadable records are the user's to fix: one line, exit 2.
    if (err instanceof SessionNotFoundError || (err instanceof Error && err.name === "RecordError"))
      throw new UsageError(err.message);
    throw err;
  }
}

export async function sessionsCommand(opts: { json?: boolean }): Promise<number> {
  const sessions = sessionsOf(ternHome(), process.cwd());
  if (opts.json) {
    process.stdout.write(`${jsonText(sessions.map(({ dir: _dir, ...s }) => s))}\n`);
    return 0;
  }
  if (sessions.length === 0) {
    process.stdout.write("no sessions in this workspace yet\n");
    return 0;
  }
  // A sub-agent's session (its `parent` names an agent) sits under the session that started it.
  const nested = underParents(
    sessions,
    (s) => s.id,
    (s) => (s.parent?.agent ? s.parent.session : undefined),
  );
  const rows = nested.map(({ item: s, depth }) => [
    indented(s.id, depth),
    s.started.replace("T", " ").slice(0, 19),
    String(s.turns),
    money(s.cost),
    s.error ? `(unreadable: ${s.error})` : s.parent?.agent ? `[${s.parent.agent}] ${s.title}` : s.title,
  ]);
  process.stdout.write(stripControlSequences(formatTable(["id", "started", "turns", "cost", "title"], rows)));
  return 0;
}

export async function exportCommand(id: string, opts: { format: "md" | "json" }): Promise<number> {
  const raw = userErrors(() => exportArchive(ternHome(), id, opts.format));
  // Markdown is read in a terminal: tool output in it must not drive it (SPEC §10). JSON escapes
  // control characters itself, so it stays exact.
  const text = opts.format === "md" ? stripControlSequences(raw) : raw;
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  return 0;
}

export async function forkCommand(id: string, opts: { at?: string }): Promise<number> {
  let at: number | undefined;
  if (opts.at !== undefined) {
    at = Number(opts.at);
    if (!Number.isInteger(at) || at < 0)
      throw new UsageError(`--at: must be a turn number, got '${opts.at}'`);
  }
  const newId = userErrors(() => forkArchive(ternHome(), id, at));
  process.stdout.write(`${newId}\n`);
  process.stderr.write(
    `forked ${id}${at !== undefined ? ` at turn ${at}` : ""}: continue it with tern --resume ${newId}\n`,
  );
  return 0;
}

type Column<T> = [header: string, cell: (row: T) => string];

const when = (iso: string) => iso.replace("T", " ").slice(0, 19);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;
const percent = (rate: number | null) => (rate === null ? "-" : `${(rate * 100).toFixed(1)}%`);

/** What the provider billed: columns shared by rows, session totals and model totals (R-REC-8). */
type BillCells = Pick<
  LedgerRow,
  "modelCalls" | "prompt" | "completion" | "cacheRead" | "cacheWrite" | "billedInput" | "cost"
>;
const BILL_COLUMNS: Column<BillCells>[] = [
  ["model calls", (r) => String(r.modelCalls)],
  ["prompt", (r) => String(r.prompt)],
  ["completion", (r) => String(r.completion)],
  ["cache read", (r) => String(r.cacheRead)],
  ["cache write", (r) => String(r.cacheWrite)],
  ["billed input", (r) => String(r.billedInput)],
  ["cost", (r) => money(r.cost)],
];
/** The usage columns of turn rows and session totals. */
type UsageCells = BillCells & Pick<LedgerRow, "rounds" | "toolCalls" | "toolErrors">;
const USAGE_COLUMNS: Column<UsageCells>[] = [
  ["rounds", (r) => String(r.rounds)],
  BILL_COLUMNS[0],
  ["tool calls", (r) => String(r.toolCalls)],
  ["tool-err", (r) => String(r.toolErrors)],
  ...BILL_COLUMNS.slice(1),
];
const TURN_COLUMNS: Column<LedgerRow>[] = [
  ["session", (r) => r.session],
  ["kind", (r) => r.kind],
  ["turn", (r) => String(r.turn)],
  ["started", (r) => when(r.started)],
  ["duration", (r) => seconds(r.durationMs)],
  ["stop", (r) => (r.kind === "turn" ? r.stopReason : "-")],
  ...USAGE_COLUMNS,
];
const TOTAL_COLUMNS: Column<SessionTotals & { depth?: number }>[] = [
  ["session", (t) => indented(t.session, t.depth ?? 0)],
  ["turns", (t) => String(t.turns)],
  ["compactions", (t) => String(t.compactions)],
  ["started", (t) => when(t.started)],
  ["duration", (t) => seconds(t.durationMs)],
  ...USAGE_COLUMNS,
  ["cache hit", (t) => percent(t.cacheHitRate)],
];
const MODEL_COLUMNS: Column<ModelTotals>[] = [
  ["model", (m) => m.model],
  ["rows", (m) => String(m.rows)],
  ...BILL_COLUMNS,
  ["cache hit", (m) => percent(m.cacheHitRate)],
];

function table<T>(columns: Column<T>[], rows: T[]): string {
  return formatTable(
    columns.map((c) => c[0]),
    rows.map((r) => columns.map((c) => c[1](r))),
  );
}

export async function metricsCommand(opts: {
  json?: boolean;
  since?: string;
  rebuild?: boolean;
}): Promise<number> {
  let since: string | undefined;
  if (opts.since !== undefined) {
    const date = new Date(opts.since);
    if (Number.isNaN(date.getTime()))
      throw new UsageError(`--since: not a date: '${opts.since}' (use e.g. 2026-11-01)`);
    since = date.toISOString();
  }
  let metrics: ReturnType<typeof readMetrics>;
  try {
    metrics = readMetrics(ternHome(), { since, rebuild: opts.rebuild });
  } catch (err) {
    if (err instanceof LedgerDamagedError) {
      process.stderr.write(
        `tern: ${err.message}; run 'tern metrics --rebuild' to recreate it from the records\n`,
      );
      return 1;
    }
    throw err;
  }
  for (const warning of metrics.warnings) process.stderr.write(`warning: ${warning}\n`);
  if (opts.json) {
    const { rows, totals, models } = metrics;
    process.stdout.write(`${jsonText({ rows, totals, models })}\n`);
    return 0;
  }
  process.stdout.write(table(TURN_COLUMNS, metrics.rows));
  process.stdout.write("\ntotals per session\n");
  const nested = underParents(
    metrics.totals,
    (t) => t.session,
    (t) => t.parent,
  );
  process.stdout.write(
    table(
      TOTAL_COLUMNS,
      nested.map(({ item, depth }) => ({ ...item, depth })),
    ),
  );
  process.stdout.write("\ntotals per model\n");
  process.stdout.write(table(MODEL_COLUMNS, metrics.models));
  return 0;
}
