// What the summarize stage of R-COMP-2 replaces, and the pieces its requests send. Two kinds of
// range: older closed turns, and — when the open turn alone is too big — the open turn's older
// rounds, between its user prompt and its newest rounds (both stay verbatim). A range never ends
// before a tool result, so no call is split from its result, and never reaches the newest round,
// so the unclosed item of R-COMP-3 stays whole. A range too big for one request is cut into
// pieces that each fit (summary-plan.ts); pure functions of the view.
import type { Entry } from "../../record/fold.js";
import { estimateTokens, SUMMARY_TOKENS_GUESS } from "./compaction-estimate.js";
import { recentRoundsStart, shedCopy } from "./compaction-shed.js";
import type { CompactionView } from "./compaction-view.js";
import { planPieces, type Span } from "./summary-plan.js";
import type { Message } from "../../vocab/messages.js";

/** Closed turns at the end of the context that summarizing keeps verbatim, when that is enough. */
const KEEP_RECENT_TURNS = 1;
/** Rounds of the open turn kept verbatim after its summary: two when that is enough, else the newest. */
const KEEP_OPEN_ROUNDS = [2, 1];
/** Room left in a summary request for the instruction, a piece's heading and the wire's own overhead. */
export const REQUEST_MARGIN_TOKENS = 512;
/**
 * Piece requests one compaction sends at most: a history up to about this many request budgets
 * is summarized whole; anything older is left to the archive (read through recall), which bounds
 * what one compaction can cost.
 */
export const MAX_SUMMARY_PIECES = 16;

export interface SummaryPiece {
  /** What the piece request sends as history (shed copies when the range is big). */
  messages: Message[];
  /** "turns 1–40", "turn 5 rounds 3–9". */
  label: string;
}

export interface SummaryRange {
  /** Inclusive seq range replaced in the model context. */
  from: number;
  to: number;
  /** "turn 3", "turns 1–4", "turn 5 rounds 1–37". */
  label: string;
  /** The open turn's rounds: every piece request carries the turn's prompt first, for context. */
  openTurn: boolean;
  /** The open turn's prompt (shed copy), sent before each piece of an open-turn range. */
  prefix: Message[];
  /** Oldest first; each piece's request fits the request limit. */
  pieces: SummaryPiece[];
  /** What the summary does not cover and the archive keeps: "turns 1–3000", "turn 40 round 7". */
  leftOut: string[];
  /** Estimated tokens of what the range replaces in the context now. */
  replacedTokens: number;
  /** Estimated tokens of the context without the range (what stays beside the summary). */
  restTokens: number;
}

const spanMessages = (entries: readonly Readonly<Entry>[], s: Span) =>
  entries.slice(s.start, s.end + 1).map((e) => e.msg);

function projected(view: CompactionView, s: Span): number {
  return view.contextTokens - estimateTokens("", "", spanMessages(view.entries, s)) + SUMMARY_TOKENS_GUESS;
}

/** All closed turns before the newest `keepTurns` closed ones. */
function closedSpan(view: CompactionView, keepTurns: number): Span | undefined {
  const { entries, openTurn } = view;
  const closedTurns = [...new Set(entries.map((e) => e.turn))].filter((t) => t !== openTurn && t > 0);
  const cutoff = closedTurns.at(-1 - keepTurns);
  if (cutoff === undefined) return undefined;
  let end = -1;
  for (let i = 0; i < entries.length && entries[i].turn <= cutoff; i++) end = i;
  return end >= 0 ? { start: 0, end } : undefined;
}

/** The open turn's rounds after its prompt and before its newest `keepRounds` rounds. */
function openSpan(view: CompactionView, keepRounds: number): Span | undefined {
  const { entries, openTurn } = view;
  if (openTurn === undefined) return undefined;
  const prompt = entries.findIndex((e) => e.turn === openTurn && e.msg.role === "user");
  if (prompt < 0) return undefined;
  const tail = recentRoundsStart(entries, keepRounds);
  const span = { start: prompt + 1, end: tail - 1 };
  if (span.end < span.start || entries[tail]?.msg.role !== "assistant") return undefined;
  return span;
}

/** Older closed turns: all but the newest closed turn, or all when keeping it is not enough. */
export function closedTurnsRange(view: CompactionView): SummaryRange | undefined {
  const keepOne = closedSpan(view, KEEP_RECENT_TURNS);
  const span = keepOne && projected(view, keepOne) <= view.limit ? keepOne : (closedSpan(view, 0) ?? keepOne);
  return span && rangeOf(view, span, false);
}

/** The open turn's older rounds, keeping two newest rounds when that is enough. */
export function openTurnRange(view: CompactionView): SummaryRange | undefined {
  let span: Span | undefined;
  for (const keep of KEEP_OPEN_ROUNDS) {
    span = openSpan(view, keep);
    if (span && projected(view, span) <= view.limit) break;
  }
  return span && rangeOf(view, span, true);
}

/** Tokens one piece's history may take: the request limit less what every request carries. */
export function pieceBudget(view: CompactionView, prefix: readonly Message[]): number {
  return view.requestLimit - view.fixedTokens - REQUEST_MARGIN_TOKENS - estimateTokens("", "", prefix);
}

/**
 * The range and the pieces its summary requests send. A range that fits one request goes whole;
 * a bigger one is shed in memory and cut into pieces at call boundaries, each under the budget.
 */
function rangeOf(view: CompactionView, span: Span, openTurn: boolean): SummaryRange | undefined {
  const { entries, rounds } = view;
  const inRange = entries.slice(span.start, span.end + 1);
  // Only an earlier summary in range: nothing new to summarize.
  if (!inRange.some((e) => e.msg.role === "assistant")) return undefined;
  const prefix = openTurn ? shedCopy([entries[span.start - 1]], rounds) : [];
  const budget = pieceBudget(view, prefix);
  if (budget <= 0) return undefined;
  const whole = spanMessages(entries, span);
  const replacedTokens = estimateTokens("", "", whole);
  const base = { label: label(view, inRange, openTurn, true), openTurn, prefix, replacedTokens };
  // A batch's results stand in call order but were committed as the calls finish, so the last
  // entry need not hold the highest seq: the range spans the lowest to the highest seq it holds.
  const seqs = inRange.map((e) => e.seq);
  const ends = {
    from: Math.min(...seqs),
    to: Math.max(...seqs),
    restTokens: view.contextTokens - replacedTokens,
  };
  if (replacedTokens <= budget)
    return { ...ends, ...base, pieces: [{ messages: whole, label: base.label }], leftOut: [] };
  const shed = shedCopy(inRange, rounds);
  const plan = planPieces(
    shed.map((m) => estimateTokens("", "", [m])),
    (i) => shed[i].role !== "tool",
    budget,
    MAX_SUMMARY_PIECES,
  );
  const part = (s: Span) => inRange.slice(s.start, s.end + 1);
  const pieces = plan.pieces.map((s) => ({
    messages: shed.slice(s.start, s.end + 1),
    label: label(view, part(s), openTurn),
  }));
  if (pieces.length === 0) return undefined;
  const leftOut = plan.tooBig.map((s) => label(view, part(s), openTurn));
  if (plan.archivedBefore > 0)
    leftOut.unshift(label(view, part({ start: 0, end: plan.archivedBefore - 1 }), openTurn));
  return { ...ends, ...base, pieces, leftOut };
}

/** A range's label counts the open turn's rounds from 1 (its summary folds in any earlier one); a piece's names its own. */
function label(
  view: CompactionView,
  inRange: readonly Readonly<Entry>[],
  openTurn: boolean,
  fromFirstRound = false,
): string {
  const first = Math.max(1, inRange[0].turn);
  const last = inRange.at(-1)!.turn;
  if (!openTurn) return first === last ? `turn ${first}` : `turns ${first}–${last}`;
  const round = (e: Readonly<Entry>) => view.rounds.bySeq.get(e.seq)?.round;
  const numbers = inRange.map(round).filter((r): r is number => r !== undefined);
  const low = Math.min(...numbers, Number.POSITIVE_INFINITY);
  const high = Math.max(0, ...numbers);
  if (low === Number.POSITIVE_INFINITY) return `turn ${last}`;
  if (fromFirstRound) return `turn ${last} rounds 1–${high}`;
  return low === high ? `turn ${last} round ${low}` : `turn ${last} rounds ${low}–${high}`;
}
