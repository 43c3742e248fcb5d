// Read-side commands over the archive and the ledger (sessions, export, fork, metrics), for
// front ends that must not touch record/ themselves.
import { existsSync } from "node:fs";
import { exportSession, type ExportFormat } from "../record/export.js";
import { forkSession } from "../record/fork.js";
import {
  type LedgerRow,
  LedgerDamagedError,
  ledgerExists,
  type ModelTotals,
  openLedger,
  type SessionTotals,
} from "../record/ledger.js";
import { rebuildLedger } from "../record/ledger-rebuild.js";
import { loadRecord } from "../record/load.js";
import { findSession, listSessions, recordFile, type SessionSummary, sessionsRoot } from "../record/store.js";
import { SessionNotFoundError } from "../engine/door/errors.js";

export type { LedgerRow, ModelTotals, SessionSummary, SessionTotals };
export { LedgerDamagedError };

export function sessionsOf(home: string, cwd: string): SessionSummary[] {
  return listSessions(home, cwd);
}

function requireSession(home: string, id: string): string {
  const found = findSession(home, id);
  if (!found)
    throw new SessionNotFoundError(
      `no session '${id}' (run 'tern sessions' to list this workspace's sessions)`,
    );
  return found.id;
}

/** The session's record file (a statusLine command's `transcript_path`); "" when there is none. */
export function recordFileOf(home: string, id: string): string {
  const found = findSession(home, id);
  return found ? recordFile(found.dir) : "";
}

export function exportArchive(home: string, id: string, format: ExportFormat): string {
  return exportSession(home, requireSession(home, id), format);
}

export function forkArchive(home: string, id: string, atTurn?: number): string {
  return forkSession(home, requireSession(home, id), atTurn);
}

/** One tool call of a sub-agent, as its own record has it. */
export interface ChildCallRecord {
  /** The child's session: call ids repeat across sessions. */
  session: string;
  id: string;
  name: string;
  arguments: string;
  /** Absent when the record holds no result for it (the child was stopped first). */
  outcome?: string;
}

/** What the sub-agent a `task` call started did: its agent and its (and its children's) calls. */
export interface ChildRecord {
  agent?: string;
  calls: ChildCallRecord[];
}

/**
 * The sub-agents started by a session's `task` calls (R-AGENT-1), by call id, read from each
 * child's own record (its `session_start.parent` names the session and call): for a replayed
 * task line's fold summary. A grandchild's calls follow the child's `task` call that started it,
 * as they did live. A child whose record cannot be read is left out.
 */
export function childRecords(home: string, cwd: string, parentId: string): Map<string, ChildRecord> {
  const byParent = new Map<string, SessionSummary[]>();
  for (const s of listSessions(home, cwd)) {
    if (s.error || !s.parent?.call) continue;
    const list = byParent.get(s.parent.session) ?? [];
    list.push(s);
    byParent.set(s.parent.session, list);
  }
  const callsOf = (child: SessionSummary, depth: number): ChildCallRecord[] => {
    const started = new Map((byParent.get(child.id) ?? []).map((g) => [g.parent?.call, g]));
    let lines: ReturnType<typeof loadRecord>["lines"];
    try {
      lines = loadRecord(recordFile(child.dir)).lines;
    } catch {
      return [];
    }
    const calls: ChildCallRecord[] = [];
    const byId = new Map<string, ChildCallRecord>();
    for (const line of lines) {
      if (line.type === "assistant_message")
        for (const c of line.toolCalls) {
          const call = { session: child.id, id: c.id, name: c.name, arguments: c.arguments };
          calls.push(call);
          byId.set(c.id, call);
          const grandchild = started.get(c.id);
          // Agents nest a few levels at most; the bound only guards against a looped record.
          if (grandchild && depth < 8) calls.push(...callsOf(grandchild, depth + 1));
        }
      else if (line.type === "tool_result") {
        const call = byId.get(line.id);
        if (call) call.outcome = line.outcome;
      }
    }
    return calls;
  };
  const out = new Map<string, ChildRecord>();
  for (const child of byParent.get(parentId) ?? []) {
    const call = child.parent?.call;
    if (call && !out.has(call)) out.set(call, { agent: child.parent?.agent, calls: callsOf(child, 0) });
  }
  return out;
}

export interface Metrics {
  rows: LedgerRow[];
  totals: SessionTotals[];
  /** Per-model sums, with cache hit rate. */
  models: ModelTotals[];
  warnings: string[];
}

/**
 * The ledger's rows and totals. A TERN_HOME with no ledger.db and no sessions shows an empty
 * ledger without creating anything; a missing ledger.db is otherwise derived from the records.
 * A damaged ledger.db throws LedgerDamagedError unless `rebuild` replaces it.
 */
export function readMetrics(home: string, opts: { since?: string; rebuild?: boolean }): Metrics {
  const warnings = opts.rebuild ? rebuildLedger(home).warnings : [];
  if (!opts.rebuild && !ledgerExists(home) && !existsSync(sessionsRoot(home)))
    return { rows: [], totals: [], models: [], warnings };
  const ledger = openLedger(home);
  try {
    return {
      rows: ledger.rows({ since: opts.since }),
      totals: ledger.totals({ since: opts.since }),
      models: ledger.modelTotals({ since: opts.since }),
      warnings,
    };
  } finally {
    ledger.close();
  }
}
