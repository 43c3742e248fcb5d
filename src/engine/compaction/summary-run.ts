// Writes the summary of one range through the ports (R-COMP-2): one request when the range fits,
// else one per piece, oldest first, then merge requests over the piece summaries while they are
// more than the room the context has for them. Every request fits the request limit.
import type { CompactionPorts } from "./compaction-ports.js";
import type { SummarySpent } from "./compaction-bill.js";
import { estimateTokens, SUMMARY_TOKENS_GUESS } from "./compaction-estimate.js";
import { pieceBudget, REQUEST_MARGIN_TOKENS, type SummaryRange } from "./compaction-range.js";
import type { CompactionView } from "./compaction-view.js";
import { newestThatFit, planMerge } from "./summary-plan.js";
import type { Message } from "../../vocab/messages.js";

/** Levels of merge requests over piece summaries: each level at least halves their number. */
const MAX_MERGE_LEVELS = 3;

const SUMMARY_INSTRUCTION =
  "Summarize the conversation above so the work can continue without it. Keep: the user's goals and " +
  "constraints, decisions made and why, files read or changed (with paths), commands run and their " +
  "outcomes, errors still open, and the next steps. Name turn numbers. Be concise; no preamble.";
const OPEN_TURN_INSTRUCTION =
  "Summarize the work done so far on the request above so it can continue without the rounds shown. " +
  "The request stays in the context verbatim and the newest rounds will follow your summary verbatim. " +
  "Keep: decisions made and why, files read or changed (with paths), commands run and their outcomes, " +
  "errors still open, what is done and what remains. Name round numbers. Be concise; no preamble.";
const MERGE_INSTRUCTION =
  "Summarize the conversation above so the work can continue without it: merge these summaries of " +
  "consecutive parts of one conversation, oldest first, into one. Keep what the newest parts need: " +
  "goals, decisions, files and paths, open errors, next steps. Name turn numbers. Be concise; no preamble.";

const userText = (text: string): Message => ({ role: "user", content: [{ type: "text", text }] });

interface Part {
  label: string;
  text: string;
}

const partTokens = (p: Part) => estimateTokens(`${p.label}: ${p.text}`, "", []);
const joined = (parts: readonly Part[]) =>
  parts.length === 1 ? parts[0].text : parts.map((p) => `${p.label}: ${p.text}`).join("\n\n");

/** "turns 1–18" and "turns 18–40" → "turns 1–40"; "turn 5 rounds 1–9" and "turn 5 round 12" → "turn 5 rounds 1–12". */
function spanLabel(first: string, last: string): string {
  const shape = /^(turn \d+ round|turn)s? (\d+)(?:–(\d+))?$/;
  const a = shape.exec(first);
  const b = shape.exec(last);
  if (!a || !b || a[1] !== b[1]) return `${first} to ${last}`;
  return `${a[1]}s ${a[2]}–${b[3] ?? b[2]}`;
}

/** Tokens the summary may take: what the limit leaves beside the rest, within a quarter of a request. */
function summaryRoom(view: CompactionView, range: SummaryRange, budget: number): number {
  const beside = view.limit - range.restTokens - REQUEST_MARGIN_TOKENS;
  return Math.max(SUMMARY_TOKENS_GUESS, Math.min(Math.floor(budget / 4), beside));
}

/** The summary text of `range`, headed with what it covers and how to read the archive. */
export async function writeSummary(
  ports: CompactionPorts,
  view: CompactionView,
  range: SummaryRange,
  spent: SummarySpent,
): Promise<string> {
  const instruction = range.openTurn ? OPEN_TURN_INSTRUCTION : SUMMARY_INSTRUCTION;
  const leftOut = [...range.leftOut];
  const many = range.pieces.length > 1;
  let parts: Part[] = [];
  for (const [i, piece] of range.pieces.entries()) {
    // A piece may begin with an assistant message; the heading keeps the user first and says what it is.
    const headed = many || (range.prefix.length === 0 && piece.messages[0]?.role !== "user");
    const heading = headed ? [userText(`[Part ${i + 1} of ${range.pieces.length}: ${piece.label}.]`)] : [];
    const history = [...range.prefix, ...heading, ...piece.messages];
    parts.push({ label: piece.label, text: await ports.requestSummary(history, instruction, spent) });
  }
  const budget = pieceBudget(view, []);
  const room = summaryRoom(view, range, budget);
  const total = (ps: readonly Part[]) => ps.reduce((n, p) => n + partTokens(p), 0);
  for (let level = 0; level < MAX_MERGE_LEVELS && parts.length > 1 && total(parts) > room; level++) {
    const groups = planMerge(parts.map(partTokens), budget);
    // No two summaries fit one request together: merging cannot make them fewer.
    if (groups.length === parts.length) break;
    const merged: Part[] = [];
    for (const group of groups) {
      const members = group.map((i) => parts[i]);
      if (members.length === 1) {
        merged.push(members[0]);
        continue;
      }
      const label = spanLabel(members[0].label, members.at(-1)!.label);
      const history = [userText(`[Summaries of ${label}, oldest first:]\n\n${joined(members)}`)];
      merged.push({ label, text: await ports.requestSummary(history, MERGE_INSTRUCTION, spent) });
    }
    parts = merged;
  }
  // Still more than the room: the newest summaries stay, the older parts are left to the archive.
  if (parts.length > 1 && total(parts) > room) {
    const keep = Math.min(newestThatFit(parts.map(partTokens), room), parts.length - 1);
    leftOut.unshift(...parts.slice(0, keep).map((p) => p.label));
    parts = parts.slice(keep);
  }
  const how = range.openTurn
    ? `recall {"turn": N, "round": R} reads one round`
    : `recall {"turn": N} reads a turn`;
  const notCovered =
    leftOut.length > 0
      ? `\n[Not summarized, too long to summarize at once: ${leftOut.join("; ")}; ${how}.]`
      : "";
  return `[Summary of ${range.label}, written by compaction. The full text is archived: ${how}.]${notCovered}\n${joined(parts)}`;
}
