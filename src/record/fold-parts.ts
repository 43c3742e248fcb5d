// The shapes the record fold keeps per turn, round, open call and context entry, and how a
// compaction record changes the context entries.
import type { CompactionRecord, RecordContentPart, RecordLine } from "./types.js";
import type { ContentPart, Message, ToolCall } from "../vocab/messages.js";
import { addUsage, emptyUsage, type Usage } from "../vocab/usage.js";

export interface RoundInfo {
  round: number;
  seq: number;
  toolCalls: ToolCall[];
  finish: string;
}

export interface TurnInfo {
  turn: number;
  /** ts of the turn's first user_prompt. */
  startedAt: string;
  /** ts of the newest line of this turn. */
  lastTs: string;
  rounds: RoundInfo[];
  /** A turn_end was written after the turn's newest line. */
  ended: boolean;
  /**
   * What the turn's current run recorded since its last turn_end (a `/retry` runs a turn again):
   * what a turn_end written at crash recovery bills, so no request is billed twice.
   */
  run: RunInfo;
}

export interface RunInfo {
  /** ts of the run's first line ("" until one is applied). */
  startedAt: string;
  rounds: number;
  /** Requests sent: every assistant message's attempts and in-turn summaries. */
  modelCalls: number;
  /** Usage of those requests, failed attempts included. */
  usage: Usage;
  /** tool_results with outcome ok, error or interrupted. */
  toolCalls: number;
  toolErrors: number;
}

export function newRun(startedAt = ""): RunInfo {
  return { startedAt, rounds: 0, modelCalls: 0, usage: emptyUsage(), toolCalls: 0, toolErrors: 0 };
}

/** What `line` adds to the open turn's run: rounds, requests and their usage, calls and errors. */
export function tallyRun(run: RunInfo, line: RecordLine): void {
  if (line.type === "assistant_message") {
    run.rounds++;
    run.modelCalls += line.attempts ?? 1;
    if (line.usage) run.usage = addUsage(run.usage, line.usage);
    if (line.failedUsage) run.usage = addUsage(run.usage, line.failedUsage);
  } else if (line.type === "tool_result") {
    // Calls that ran (or may have run) count; denied and not-executed ones did not.
    if (line.outcome === "ok" || line.outcome === "error" || line.outcome === "interrupted") run.toolCalls++;
    if (line.outcome === "error" || line.outcome === "interrupted") run.toolErrors++;
  } else if (line.type === "compaction" && !line.bill && line.usage) {
    // Without `bill` a summary ran inside a turn, whose turn_end bills it; with `bill` it has its
    // own ledger row (R-REC-8).
    run.usage = addUsage(run.usage, line.usage);
    run.modelCalls += line.modelCalls ?? 1;
  }
}

export interface OpenCall {
  id: string;
  name: string;
  turn: number;
  /** A tool_start exists: the call may have had effects. */
  started: boolean;
}

/** One message of the model context with the record line it came from (compaction plans by seq). */
export interface Entry {
  seq: number;
  turn: number;
  msg: Message;
}

/** Record image parts travel without data; the engine hydrates them from attachments before sending. */
export function toContent(parts: RecordContentPart[]): ContentPart[] {
  return parts.map((p) =>
    p.type === "image"
      ? { type: "image", mediaType: p.mediaType, data: "", ref: p.ref }
      : { type: "text", text: p.text },
  );
}

/**
 * Shed placeholders replace content of single lines, and shed arguments the arguments of single
 * calls (ids and names stay, so every result still has its call); a summary replaces the whole
 * range, which may also be the older rounds of the open turn.
 */
export function applyCompaction(
  entries: Entry[],
  bySeq: Map<number, Entry>,
  line: CompactionRecord,
): Entry[] {
  const inRange = (seq: number) => {
    const entry = bySeq.get(seq);
    return entry && entry.seq >= line.fromSeq && entry.seq <= line.toSeq ? entry : undefined;
  };
  for (const [key, text] of Object.entries(line.placeholders ?? {})) {
    const entry = inRange(Number(key));
    if (!entry) continue;
    const m = entry.msg;
    const content: ContentPart[] = [{ type: "text", text }];
    entry.msg =
      m.role === "assistant"
        ? { role: "assistant", text, reasoning: "", toolCalls: m.toolCalls }
        : m.role === "tool"
          ? { ...m, content }
          : { role: "user", content };
  }
  for (const [key, byCall] of Object.entries(line.arguments ?? {})) {
    const entry = inRange(Number(key));
    if (entry?.msg.role !== "assistant") continue;
    const m = entry.msg;
    entry.msg = {
      role: "assistant",
      text: m.text,
      reasoning: "",
      toolCalls: m.toolCalls.map((c) =>
        typeof byCall[c.id] === "string" ? { ...c, arguments: byCall[c.id] } : c,
      ),
    };
  }
  if (line.summary !== undefined) {
    let at = -1;
    let turn = 0;
    const kept: Entry[] = [];
    const removedCalls = new Set<string>();
    for (const e of entries) {
      if (e.seq >= line.fromSeq && e.seq <= line.toSeq) {
        if (at < 0) {
          at = kept.length;
          turn = e.turn;
        }
        bySeq.delete(e.seq);
        if (e.msg.role === "assistant") for (const call of e.msg.toolCalls) removedCalls.add(call.id);
      } else kept.push(e);
    }
    if (at < 0) at = kept.findIndex((e) => e.seq > line.toSeq);
    if (at < 0) at = kept.length;
    dropOrphanedResults(kept, at, removedCalls, bySeq);
    // The summary stands at the start of its range, so a later compaction over it removes it too.
    const entry: Entry = {
      seq: line.fromSeq,
      turn,
      msg: { role: "user", content: [{ type: "text", text: line.summary }] },
    };
    kept.splice(at, 0, entry);
    bySeq.set(entry.seq, entry);
    return kept;
  }
  return entries;
}

/**
 * Results right after a summarized range that answer calls the summary removed: older versions
 * ended a range at its last entry's seq, which a batch committed out of call order does not
 * hold, so such a record leaves results behind without their call, a request no API accepts.
 * Only the run of tool results right after the range goes, so a later call reusing an id stays.
 */
function dropOrphanedResults(
  kept: Entry[],
  at: number,
  removedCalls: ReadonlySet<string>,
  bySeq: Map<number, Entry>,
): void {
  let end = at;
  while (end < kept.length) {
    const m = kept[end].msg;
    if (m.role !== "tool" || !removedCalls.has(m.toolCallId)) break;
    bySeq.delete(kept[end].seq);
    end++;
  }
  kept.splice(at, end - at);
}
