// meta.json: a small summary per session so a listing never parses whole records. It is
// derived: stale or missing (its recordSize differs from the record's size) means rebuild.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ForkParent, RecordLine } from "./types.js";
import { writeFileAtomic } from "./atomic-write.js";
import { firstOwnIndex } from "./bill.js";
import { addCost } from "../vocab/cost.js";

export interface SessionMeta {
  id: string;
  cwd: string;
  /** The model in force at the newest line. */
  model: string;
  /** ts of session_start. */
  started: string;
  /** The first prompt, one line, at most 60 characters. */
  title: string;
  /** The newest turn number. */
  turns: number;
  /**
   * Cost per turn, every run of it summed (a /retry runs a turn again), plus `compaction <seq>`
   * for each `/compact` summary outside a turn. `null` = unknown.
   */
  turnCosts: Record<string, number | null>;
  parent?: ForkParent;
  lastSeq: number;
  /** Size of record.jsonl this summary describes. */
  recordSize: number;
}

export const META_FILE = "meta.json";
export const RECORD_FILE = "record.jsonl";

export function emptyMeta(): SessionMeta {
  return {
    id: "",
    cwd: "",
    model: "",
    started: "",
    title: "",
    turns: 0,
    turnCosts: {},
    lastSeq: 0,
    recordSize: 0,
  };
}

export function titleOf(text: string): string {
  const first = text.split("\n").find((l) => l.trim() !== "") ?? "";
  const one = first.replace(/\s+/g, " ").trim();
  return one.length <= 60 ? one : `${one.slice(0, 59)}…`;
}

/**
 * Folds one line into the summary. `copied`: the line is one a fork copied from its parent, whose
 * cost is the parent's bill (R-REC-8), as the ledger has it (bill.ts `firstOwnIndex`); a line
 * appended to a fork is copied while its seq is at most `parent.seq`.
 */
export function updateMeta(meta: SessionMeta, line: RecordLine, copied = copiedBySeq(meta, line)): void {
  meta.lastSeq = line.seq;
  switch (line.type) {
    case "session_start":
      meta.id = line.id;
      meta.cwd = line.cwd;
      meta.model = line.model;
      meta.started = line.ts;
      if (line.parent) meta.parent = line.parent;
      break;
    case "config":
      meta.model = line.model;
      break;
    case "user_prompt":
      meta.turns = Math.max(meta.turns, line.turn);
      if (!meta.title) {
        const text = line.content.map((p) => (p.type === "text" ? p.text : "[image]")).join(" ");
        meta.title = titleOf(text);
      }
      break;
    case "turn_end": {
      if (copied) break;
      // A `/retry` runs a turn again: its cost adds to the turn's, as in the ledger (R-REC-8).
      const key = String(line.turn);
      const before = meta.turnCosts[key];
      meta.turnCosts[key] = before === undefined ? line.cost : addCost(before, line.cost);
      break;
    }
    case "compaction":
      if (line.bill && !copied) meta.turnCosts[`compaction ${line.seq}`] = line.bill.cost;
      break;
  }
}

function copiedBySeq(meta: SessionMeta, line: RecordLine): boolean {
  const seq = meta.parent?.seq;
  return seq !== undefined && line.seq <= seq;
}

/** Sum of turn costs; null when any is unknown. */
export function totalCost(meta: SessionMeta): number | null {
  let sum = 0;
  for (const c of Object.values(meta.turnCosts)) {
    if (c === null) return null;
    sum += c;
  }
  return sum;
}

export function metaFromLines(lines: readonly RecordLine[], recordSize: number): SessionMeta {
  const meta = emptyMeta();
  // The ledger's rule for where a fork's own lines begin, forks made before `parent.seq` included.
  const own = firstOwnIndex(lines);
  for (let i = 0; i < lines.length; i++) updateMeta(meta, lines[i], i < own);
  meta.recordSize = recordSize;
  return meta;
}

export function writeMeta(sessionDir: string, meta: SessionMeta): void {
  // Atomic: a listing never reads half a file.
  writeFileAtomic(join(sessionDir, META_FILE), JSON.stringify(meta));
}

/** The stored summary if it still describes the record, else undefined. */
/**
 * Whether a parent's `task` call started the session (a sub-agent's: the person reaches it through
 * its parent). `parent` never changes, so a stale meta.json still says; none counts as top-level.
 */
export function startedByTask(sessionDir: string): boolean {
  try {
    const meta = JSON.parse(readFileSync(join(sessionDir, META_FILE), "utf8")) as SessionMeta;
    return meta.parent?.call !== undefined;
  } catch {
    return false;
  }
}

export function readFreshMeta(sessionDir: string): SessionMeta | undefined {
  try {
    const meta = JSON.parse(readFileSync(join(sessionDir, META_FILE), "utf8")) as SessionMeta;
    const size = statSync(join(sessionDir, RECORD_FILE)).size;
    return meta.recordSize === size ? meta : undefined;
  } catch {
    return undefined;
  }
}
