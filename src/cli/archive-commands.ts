// `tern sessions`, `tern export`, `tern fork`, `tern metrics`: read the archive and the ledger.
import { exportArchive, forkArchive, readMetrics, sessionsOf } from "../engine/archive.js";
import { SessionNotFoundError } from "../engine/open.js";
import { formatTable, money } from "./table.js";
import { ternHome } from "./setup.js";
import { UsageError } from "./usage-error.js";

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
    process.stdout.write(`${JSON.stringify(sessions.map(({ dir: _dir, ...s }) => s))}\n`);
    return 0;
  }
  if (sessions.length === 0) {
    process.stdout.write("no sessions in this workspace yet\n");
    return 0;
  }
  const rows = sessions.map((s) => [
    s.id,
    s.started.replace("T", " ").slice(0, 19),
    String(s.turns),
    money(s.cost),
    s.error ? `(unreadable: ${s.error})` : s.title,
  ]);
  process.stdout.write(formatTable(["id", "started", "turns", "cost", "title"], rows));
  return 0;
}

export async function exportCommand(id: string, opts: { format: "md" | "json" }): Promise<number> {
  const text = userErrors(() => exportArchive(ternHome(), id, opts.format));
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
  const metrics = readMetrics(ternHome(), { since, rebuild: opts.rebuild });
  for (const warning of metrics.warnings) process.stderr.write(`warning: ${warning}\n`);
  if (opts.json) {
    process.stdout.write(`${JSON.stringify({ rows: metrics.rows, totals: metrics.totals })}\n`);
    return 0;
  }
  const head = [
    "session",
    "turn",
    "stop",
    "rounds",
    "model calls",
    "tool calls",
    "tool-err",
    "prompt",
    "completion",
    "cache read",
    "cache write",
    "billed input",
    "cost",
  ];
  const num = (n: number) => String(n);
  const rows = metrics.rows.map((r) => [
    r.session,
    num(r.turn),
    r.stopReason,
    num(r.rounds),
    num(r.modelCalls),
    num(r.toolCalls),
    num(r.toolErrors),
    num(r.prompt),
    num(r.completion),
    num(r.cacheRead),
    num(r.cacheWrite),
    num(r.billedInput),
    money(r.cost),
  ]);
  process.stdout.write(formatTable(head, rows));
  process.stdout.write("\ntotals per session\n");
  const totalHead = [
    "session",
    "turns",
    "rounds",
    "model calls",
    "tool calls",
    "tool-err",
    "prompt",
    "completion",
    "cache read",
    "cache write",
    "billed input",
    "cost",
  ];
  const totals = metrics.totals.map((t) => [
    t.session,
    num(t.turns),
    num(t.rounds),
    num(t.modelCalls),
    num(t.toolCalls),
    num(t.toolErrors),
    num(t.prompt),
    num(t.completion),
    num(t.cacheRead),
    num(t.cacheWrite),
    num(t.billedInput),
    money(t.cost),
  ]);
  process.stdout.write(formatTable(totalHead, totals));
  return 0;
}
