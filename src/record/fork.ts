// R-REC-6 fork: a new session whose first records are the parent's up to the end of turn N,
// renumbered from seq 1 (compaction ranges remapped with them), with its images linked.
import { copyFileSync, existsSync, linkSync } from "node:fs";
import { join } from "node:path";
import { attachmentsDir, imageRefs } from "./attachments.js";
import { RecordError } from "./errors.js";
import { loadRecord } from "./load.js";
import { createSession, findSession, recordFile } from "./store.js";
import type { NewRecord, RecordLine } from "./types.js";

export interface ForkOptions {
  now?: () => Date;
}

/** Index of the line that ends the copy: the last turn_end of `atTurn` (default: the newest ended turn). */
function cutIndex(
  lines: readonly RecordLine[],
  atTurn: number | undefined,
  source: string,
): { cut: number; turn: number } {
  let cut = -1;
  let turn = 0;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.type !== "turn_end") continue;
    if (atTurn === undefined || l.turn === atTurn) {
      cut = i;
      turn = l.turn;
    }
  }
  if (atTurn !== undefined && cut < 0)
    throw new RecordError(`session ${source} has no ended turn ${atTurn} to fork at`);
  if (cut < 0) {
    // Nothing has ended yet: keep only the header lines before the first prompt.
    cut = lines.findIndex((l) => l.type === "user_prompt") - 1;
    if (cut < -1) cut = lines.length - 1;
  }
  return { cut, turn };
}

/** Copies a record line under new seq numbers. */
function remap(line: RecordLine, seqMap: Map<number, number>): NewRecord {
  const { v: _v, seq: _s, ts: _t, ...rest } = line;
  if (rest.type !== "compaction") return rest as NewRecord;
  const lookup = (seq: number, dir: 1 | -1): number => {
    // A range end may name a line that was not copied (never happens for whole records); take the nearest kept one.
    for (let s = seq; s > 0 && s <= line.seq; s += dir) {
      const mapped = seqMap.get(s);
      if (mapped !== undefined) return mapped;
    }
    return seq;
  };
  const placeholders = rest.placeholders
    ? Object.fromEntries(
        Object.entries(rest.placeholders).map(([k, v]) => [String(seqMap.get(Number(k)) ?? k), v]),
      )
    : undefined;
  const args = rest.arguments
    ? Object.fromEntries(
        Object.entries(rest.arguments).map(([k, v]) => [String(seqMap.get(Number(k)) ?? k), v]),
      )
    : undefined;
  return {
    ...rest,
    fromSeq: lookup(rest.fromSeq, 1),
    toSeq: lookup(rest.toSeq, -1),
    ...(placeholders ? { placeholders } : {}),
    ...(args ? { arguments: args } : {}),
  };
}

/** Forks session `sourceId` (id or unique prefix) at the end of turn `atTurn`; returns the new id. */
export function forkSession(home: string, sourceId: string, atTurn?: number, opts: ForkOptions = {}): string {
  const source = findSession(home, sourceId);
  if (!source) throw new RecordError(`no session '${sourceId}'`);
  const { lines } = loadRecord(recordFile(source.dir));
  const start = lines[0];
  if (start?.type !== "session_start") throw new RecordError(`session ${source.id} has no session_start`);
  const { cut, turn } = cutIndex(lines, atTurn, source.id);
  // The copy is the parent's bill: `parent.seq` names the last copied line, so the ledger
  // counts only what the fork itself sends (R-REC-8).
  const copies = lines.slice(1, cut + 1).filter((l) => l.type !== "session_start").length;

  const forked = createSession(home, {
    cwd: start.cwd,
    model: start.model,
    parent: { session: source.id, turn, seq: 1 + copies },
    now: opts.now,
  });
  try {
    const seqMap = new Map<number, number>([[start.seq, 1]]);
    const copied: RecordLine[] = [];
    for (let i = 1; i <= cut; i++) {
      const line = lines[i];
      if (line.type === "session_start") continue;
      const written = forked.writer.append(remap(line, seqMap), { ts: line.ts });
      seqMap.set(line.seq, written.seq);
      copied.push(written);
    }
    // Hard links share bytes, yet each session can delete its own name (R-REC-5) independently.
    for (const ref of imageRefs(copied)) {
      const from = join(attachmentsDir(source.dir), ref);
      const to = join(attachmentsDir(forked.dir), ref);
      if (!existsSync(from) || existsSync(to)) continue;
      try {
        linkSync(from, to);
      } catch {
        copyFileSync(from, to);
      }
    }
  } finally {
    forked.writer.close();
  }
  return forked.id;
}
