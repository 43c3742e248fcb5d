// What the summarize stage of R-COMP-2 replaces, and the history its request sends. Two kinds of
// range: older closed turns, and — when the open turn alone is too big — the open turn's older
// rounds, between its user prompt and its newest rounds (both stay verbatim). A range never ends
// before a tool result, so no call is split from its result, and never reaches the newest round,
// so the unclosed item of R-COMP-3 stays whole. The request itself is fitted under the window.
import type { Entry } from "../../record/fold.js";
import {
  compactionLimit,
  contextEstimate,
  estimateTokens,
  fixedEstimate,
  requestLimit,
  SUMMARY_TOKENS_GUESS,
} from "./compaction-estimate.js";
import { recentRoundsStart, roundIndex, shedCopy } from "./compaction-shed.js";
import type { SessionCore } from "../core.js";
import type { Message } from "../../vocab/messages.js";

/** Closed turns at the end of the context that summarizing keeps verbatim, when that is enough. */
const KEEP_RECENT_TURNS = 1;
/** Rounds of the open turn kept verbatim after its summary: two when that is enough, else the newest. */
const KEEP_OPEN_ROUNDS = [2, 1];
/** Room left in a summary request for the instruction and the wire's own overhead. */
const REQUEST_MARGIN_TOKENS = 512;

export interface SummaryRange {
  /** Inclusive seq range replaced in the model context. */
  from: number;
  to: number;
  /** "turn 3", "turns 1–4", "turn 5 rounds 1–37". */
  label: string;
  /** The open turn's rounds: the summary request carries the turn's prompt first, for context. */
  openTurn: boolean;
  /** What the summary request sends as history (fitted under the window). */
  history: Message[];
}

/** Inclusive index span into the model context's entries. */
interface Span {
  start: number;
  end: number;
}

const spanMessages = (entries: readonly Readonly<Entry>[], s: Span) =>
  entries.slice(s.start, s.end + 1).map((e) => e.msg);

function projected(core: SessionCore, entries: readonly Readonly<Entry>[], s: Span): number {
  return contextEstimate(core) - estimateTokens("", "", spanMessages(entries, s)) + SUMMARY_TOKENS_GUESS;
}

/** All closed turns before the newest `keepTurns` closed ones. */
function closedSpan(core: SessionCore, keepTurns: number): Span | undefined {
  const entries = core.fold.contextEntries;
  const open = core.fold.openTurn?.turn;
  const closedTurns = [...new Set(entries.map((e) => e.turn))].filter((t) => t !== open && t > 0);
  const cutoff = closedTurns.at(-1 - keepTurns);
  if (cutoff === undefined) return undefined;
  let end = -1;
  for (let i = 0; i < entries.length && entries[i].turn <= cutoff; i++) end = i;
  return end >= 0 ? { start: 0, end } : undefined;
}

/** The open turn's rounds after its prompt and before its newest `keepRounds` rounds. */
function openSpan(core: SessionCore, keepRounds: number): Span | undefined {
  const entries = core.fold.contextEntries;
  const open = core.fold.openTurn?.turn;
  if (open === undefined) return undefined;
  const prompt = entries.findIndex((e) => e.turn === open && e.msg.role === "user");
  if (prompt < 0) return undefined;
  const tail = recentRoundsStart(entries, keepRounds);
  const span = { start: prompt + 1, end: tail - 1 };
  if (span.end < span.start || entries[tail]?.msg.role !== "assistant") return undefined;
  // Something to summarize: at least one round (not only an earlier summary).
  return entries.slice(span.start, span.end + 1).some((e) => e.msg.role === "assistant") ? span : undefined;
}

/** Older closed turns: all but the newest closed turn, or all when keeping it is not enough. */
export function closedTurnsRange(core: SessionCore): SummaryRange | undefined {
  const entries = core.fold.contextEntries;
  const keepOne = closedSpan(core, KEEP_RECENT_TURNS);
  const span =
    keepOne && projected(core, entries, keepOne) <= compactionLimit(core)
      ? keepOne
      : (closedSpan(core, 0) ?? keepOne);
  return span && fitRange(core, span, false);
}

/** The open turn's older rounds, keeping two newest rounds when that is enough. */
export function openTurnRange(core: SessionCore): SummaryRange | undefined {
  const entries = core.fold.contextEntries;
  let span: Span | undefined;
  for (const keep of KEEP_OPEN_ROUNDS) {
    span = openSpan(core, keep);
    if (span && projected(core, entries, span) <= compactionLimit(core)) break;
  }
  return span && fitRange(core, span, true);
}

/**
 * The range and its request history, shortened at its end until the request fits under the
 * limit: first the copy is shed in memory, then whole rounds are left for a later compaction.
 */
function fitRange(core: SessionCore, span: Span, openTurn: boolean): SummaryRange | undefined {
  const entries = core.fold.contextEntries;
  const budget = requestLimit(core) - fixedEstimate(core) - REQUEST_MARGIN_TOKENS;
  const rounds = roundIndex(core);
  const prefix: Message[] = [];
  if (openTurn) prefix.push(...shedCopy([entries[span.start - 1]], rounds));
  let history = [...prefix, ...spanMessages(entries, span)];
  let end = span.end;
  if (estimateTokens("", "", history) > budget) {
    const shed = shedCopy(entries.slice(span.start, span.end + 1), rounds);
    // Cut only where the next message is not a tool result (never split a call from its result).
    let size = estimateTokens("", "", prefix);
    let fits = -1;
    for (let i = 0; i < shed.length; i++) {
      size += estimateTokens("", "", [shed[i]]);
      if (size > budget) break;
      const next = entries[span.start + i + 1];
      if (next?.msg.role !== "tool") fits = i;
    }
    if (fits < 0) return undefined;
    end = span.start + fits;
    history = [...prefix, ...shed.slice(0, fits + 1)];
  }
  const inRange = entries.slice(span.start, end + 1);
  // Only an earlier summary in range: nothing new to summarize.
  if (!inRange.some((e) => e.msg.role === "assistant")) return undefined;
  // A batch's results stand in call order but were committed as the calls finished, so the
  // range's last entry need not hold its highest seq: a seq range up to it would leave a result
  // behind without its call. The range spans the lowest to the highest seq it holds.
  const seqs = inRange.map((e) => e.seq);
  return {
    from: Math.min(...seqs),
    to: Math.max(...seqs),
    label: label(core, inRange, openTurn),
    openTurn,
    history,
  };
}

function label(core: SessionCore, inRange: readonly Readonly<Entry>[], openTurn: boolean): string {
  const first = Math.max(1, inRange[0].turn);
  const last = inRange.at(-1)!.turn;
  if (!openTurn) return first === last ? `turn ${first}` : `turns ${first}–${last}`;
  const bySeq = roundIndex(core).bySeq;
  const newest = Math.max(0, ...inRange.map((e) => bySeq.get(e.seq)?.round ?? 0));
  return `turn ${last} rounds 1–${newest}`;
}
