// Compaction (SPEC §7): two stages recorded as `compaction` records and applied by the fold.
// Shed is deterministic and free: old tool results become placeholders that name the tool and
// how to read them again, long old texts are cut, the newest rounds stay. Summarize runs only
// when shedding was not enough: older turns become one model-written summary (no tools).
// Neither touches the unclosed item nor splits a tool call from its result (R-COMP-3).
import { addUsage, emptyUsage } from "../config/pricing.js";
import { type PrefixMemo, reusablePrefix } from "../provider/grown-prefix.js";
import { streamWithRetry } from "../provider/retry.js";
import type { Message, NormalizedRequest, Usage } from "../provider/types.js";
import type { Entry } from "../record/fold.js";
import { billFailedSummary, billOutOfTurn, type SummarySpent } from "./compaction-bill.js";
import { toUsageFields } from "./convert.js";
import type { SessionCore } from "./core.js";

/**
 * Rounds at the end of the context that shedding keeps: three when that is enough, else only the
 * newest, whose results the model asked for last (shedding those would be amnesia).
 */
const KEEP_RECENT_ROUNDS = [3, 1];
/** Closed turns at the end of the context that summarizing keeps verbatim, when that is enough. */
const KEEP_RECENT_TURNS = 1;
/** What a summary is assumed to cost when choosing how much to summarize. */
const SUMMARY_TOKENS_GUESS = 800;
const SHED_TOOL_RESULT_OVER = 300;
const CUT_TEXT_OVER = 2000;
const CUT_TEXT_TO = 600;
const IMAGE_TOKENS = 1500;

const SUMMARY_INSTRUCTION =
  "Summarize the conversation above so the work can continue without it. Keep: the user's goals and " +
  "constraints, decisions made and why, files read or changed (with paths), commands run and their " +
  "outcomes, errors still open, and the next steps. Name turn numbers. Be concise; no preamble.";

/** The chars/4 estimate (R-COMP-6): used to decide and warn, never reported as usage. */
export function estimateTokens(system: string, toolsJson: string, messages: readonly Message[]): number {
  let chars = system.length + toolsJson.length;
  let images = 0;
  for (const m of messages) {
    if (m.role === "assistant") {
      chars += m.text.length + m.reasoning.length;
      for (const c of m.toolCalls) chars += c.name.length + c.arguments.length;
      continue;
    }
    for (const p of m.content) {
      if (p.type === "text") chars += p.text.length;
      else images++;
    }
  }
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}

/**
 * The estimate of a messages array is kept per array and extended as it grows (see grown-prefix.ts),
 * so checking the threshold every round stays O(new messages).
 */
const estimates = new WeakMap<readonly Message[], PrefixMemo<Message> & { tokens: number }>();
const toolsChars = new WeakMap<readonly object[], number>();

export function contextEstimate(core: SessionCore): number {
  const messages = core.fold.messages;
  const known = estimates.get(messages);
  const from = reusablePrefix(messages, known);
  const tokens = (from > 0 ? known!.tokens : 0) + estimateTokens("", "", messages.slice(from));
  if (messages.length > 0)
    estimates.set(messages, { count: messages.length, last: messages[messages.length - 1], tokens });
  let tools = toolsChars.get(core.tools);
  if (tools === undefined) {
    tools = JSON.stringify(core.tools).length;
    toolsChars.set(core.tools, tools);
  }
  return tokens + Math.ceil((core.system.length + tools) / 4);
}

export function compactionLimit(core: SessionCore): number {
  return core.settings.autoCompactThreshold * core.model.info.contextWindow;
}

/** R-COMP-1: over the threshold by the estimate or by the last round's reported prompt tokens. */
export function overBudget(core: SessionCore): boolean {
  if (core.settings.autoCompactThreshold <= 0) return false;
  const limit = compactionLimit(core);
  return contextEstimate(core) > limit || (core.lastRoundUsage?.prompt ?? 0) > limit;
}

/** Where each tool call was made, so placeholders can name turn and round for `recall`. */
function callRounds(core: SessionCore): Map<string, { turn: number; round: number }> {
  const out = new Map<string, { turn: number; round: number }>();
  for (const line of core.fold.archive) {
    if (line.type !== "assistant_message") continue;
    for (const call of line.toolCalls) out.set(call.id, { turn: line.turn, round: line.round });
  }
  return out;
}

function textOf(entry: Readonly<Entry>): string {
  const m = entry.msg;
  if (m.role === "assistant") return m.text;
  return m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

const isShed = (text: string) => text.startsWith("[shed by compaction");

/** Placeholders for the shed stage (and the tokens they save), or undefined when nothing old is worth shedding. */
export function planShed(
  core: SessionCore,
  keepRounds: number,
): { placeholders: Record<string, string>; saved: number } | undefined {
  const entries = core.fold.contextEntries;
  let kept = 0;
  let tailStart = entries.length;
  for (let i = entries.length - 1; i >= 0 && kept < keepRounds; i--) {
    tailStart = i;
    if (entries[i].msg.role === "assistant") kept++;
  }
  const rounds = callRounds(core);
  const placeholders: Record<string, string> = {};
  let savedChars = 0;
  for (const entry of entries.slice(0, tailStart)) {
    const m = entry.msg;
    const text = textOf(entry);
    if (isShed(text)) continue;
    if (m.role === "tool") {
      const size = text.length + m.content.filter((p) => p.type === "image").length * IMAGE_TOKENS * 4;
      if (size <= SHED_TOOL_RESULT_OVER) continue;
      const where = rounds.get(m.toolCallId) ?? { turn: entry.turn, round: 0 };
      placeholders[entry.seq] =
        `[shed by compaction: ${m.toolName} result from turn ${where.turn} round ${where.round}, ${text.length} chars; ` +
        `re-run the tool, or call recall {"turn": ${where.turn}, "round": ${where.round}} to read it]`;
      savedChars += size - placeholders[entry.seq].length;
    } else if (m.role === "assistant" && text.length > CUT_TEXT_OVER) {
      placeholders[entry.seq] =
        `${text.slice(0, CUT_TEXT_TO)}\n[shed by compaction: ${text.length - CUT_TEXT_TO} more chars of this reply; ` +
        `recall {"turn": ${entry.turn}} reads them]`;
      savedChars += text.length - placeholders[entry.seq].length;
    }
  }
  return Object.keys(placeholders).length > 0
    ? { placeholders, saved: Math.floor(savedChars / 4) }
    : undefined;
}

type SummaryRange = { from: number; to: number; turns: [number, number] };

/** The older closed turns a summary replaces: all but the newest closed turn, or all when keeping it is not enough. */
function summaryRange(core: SessionCore): SummaryRange | undefined {
  const keepOne = closedTurnsRange(core, KEEP_RECENT_TURNS);
  if (keepOne) {
    const projected =
      contextEstimate(core) - estimateTokens("", "", rangeMessages(core, keepOne)) + SUMMARY_TOKENS_GUESS;
    if (projected <= compactionLimit(core)) return keepOne;
  }
  return closedTurnsRange(core, 0) ?? keepOne;
}

function closedTurnsRange(core: SessionCore, keepTurns: number): SummaryRange | undefined {
  const entries = core.fold.contextEntries;
  const open = core.fold.openTurn?.turn;
  const closedTurns = [...new Set(entries.map((e) => e.turn))].filter((t) => t !== open && t > 0);
  const cutoff = closedTurns.at(-1 - keepTurns);
  if (cutoff === undefined) return undefined;
  const inRange = entries.filter((e) => e.turn <= cutoff);
  if (inRange.length === 0) return undefined;
  return { from: inRange[0].seq, to: inRange.at(-1)!.seq, turns: [Math.max(1, inRange[0].turn), cutoff] };
}

export interface CompactionOutcome {
  before: number;
  after: number;
  /** False when a needed stage could not run (nothing to shed or summarize, or the summary failed). */
  ran: boolean;
}

export interface CompactionHooks {
  signal: AbortSignal;
  onModelCall(): void;
  onUsage(usage: Usage): void;
  /** Set when run outside a turn (`/compact`): the summary gets a ledger row of its own (R-REC-8). */
  outOfTurn?: { startedAt: Date };
}

/** Runs shed, then summarize if still over budget (or both when `force`, as /compact does). */
export async function compact(
  core: SessionCore,
  force: boolean,
  hooks: CompactionHooks,
): Promise<CompactionOutcome> {
  // The context's size: the larger of the estimate and the provider's last reported prompt, less
  // what this compaction has removed since that report.
  const reported = core.lastRoundUsage?.prompt ?? 0;
  const firstEstimate = contextEstimate(core);
  const size = () => {
    const estimate = contextEstimate(core);
    return Math.max(estimate, reported - (firstEstimate - estimate));
  };
  const before = size();
  core.lastRoundUsage = null;
  const limit = compactionLimit(core);
  let ran = false;
  for (const keep of KEEP_RECENT_ROUNDS) {
    const shed = planShed(core, keep);
    if (shed) {
      const seqs = Object.keys(shed.placeholders).map(Number);
      const start = contextEstimate(core);
      core.commit({
        type: "compaction",
        stage: "shed",
        fromSeq: Math.min(...seqs),
        toSeq: Math.max(...seqs),
        placeholders: shed.placeholders,
        beforeTokens: start,
        afterTokens: Math.max(0, start - shed.saved),
      });
      publishCompaction(core, "shed", start);
      ran = true;
    }
    if (!force && size() <= limit) break;
  }
  if (force || size() > limit) {
    const range = summaryRange(core);
    if (range) {
      const start = contextEstimate(core);
      const spent: SummarySpent = { usage: null, modelCalls: 0 };
      let summary: string;
      try {
        summary = await summarize(core, range, hooks, spent);
      } catch (err) {
        if (hooks.outOfTurn && spent.usage)
          billFailedSummary(core, range, start, spent, hooks.outOfTurn, err);
        throw err;
      }
      const { usage, modelCalls } = spent;
      const replaced = estimateTokens("", "", rangeMessages(core, range));
      const line = core.commit({
        type: "compaction",
        stage: "summarize",
        fromSeq: range.from,
        toSeq: range.to,
        summary,
        beforeTokens: start,
        afterTokens: Math.max(0, start - replaced + Math.ceil(summary.length / 4)),
        usage,
        modelCalls,
        ...(hooks.outOfTurn ? { bill: billOutOfTurn(core, usage, hooks.outOfTurn.startedAt) } : {}),
      });
      if (hooks.outOfTurn) core.onBilled?.(line);
      publishCompaction(core, "summarize", start, line.type === "compaction" ? line.bill?.cost : undefined);
      ran = true;
    }
  }
  return { before, after: size(), ran };
}

function rangeMessages(core: SessionCore, range: { from: number; to: number }): Message[] {
  return core.fold.contextEntries.filter((e) => e.seq >= range.from && e.seq <= range.to).map((e) => e.msg);
}

/** `cost` only for a summary billed on its own row (outside a turn), so front ends can add it. */
function publishCompaction(core: SessionCore, stage: string, before: number, cost?: number | null): void {
  core.publish({
    type: "compaction",
    stage,
    before_tokens: before,
    after_tokens: contextEstimate(core),
    ...(cost !== undefined ? { cost } : {}),
  });
}

async function summarize(
  core: SessionCore,
  range: { from: number; to: number; turns: [number, number] },
  hooks: CompactionHooks,
  spent: SummarySpent,
): Promise<string> {
  const history = rangeMessages(core, range);
  const request: NormalizedRequest = {
    ...core.buildRequest(),
    // The history may hold tool calls, which need the definitions on some protocols (R-COMP-2).
    toolChoice: "none",
    messages: [
      ...core.hydrateMessages(history),
      { role: "user", content: [{ type: "text", text: SUMMARY_INSTRUCTION }] },
    ],
  };
  const result = await streamWithRetry(core.adapter, request, {
    retry: core.settings.retry,
    signal: hooks.signal,
    idleTimeoutMs: core.settings.streamIdleTimeoutSeconds * 1000,
    deadline: null,
    onAttemptStart: () => {
      spent.modelCalls++;
      hooks.onModelCall();
    },
    onAttemptUsage: (u) => {
      spent.usage = addUsage(spent.usage ?? emptyUsage(), u);
      hooks.onUsage(u);
    },
    onEvent: () => {},
    onDiscard: () => {},
    onRetry: () => {},
  });
  const [first, last] = range.turns;
  const label = first === last ? `turn ${first}` : `turns ${first}–${last}`;
  return (
    `[Summary of ${label}, written by compaction. The full text is archived: recall {"turn": N} reads a turn.]\n` +
    result.text.trim()
  );
}

/**
 * R-COMP-4 inside a turn: compact, and say why the turn must stop (`undefined` = go on). A
 * compaction that leaves the context over budget, or frees less than 10%, stops the turn, so
 * there is no compact → refill → compact loop.
 */
export async function compactTurnContext(
  core: SessionCore,
  why: "threshold" | "overflow" | "manual",
  hooks: CompactionHooks,
): Promise<string | undefined> {
  const outcome = await compact(core, why !== "threshold", hooks);
  // /compact with nothing to compact is no failure; a provider overflow with nothing to compact
  // would only overflow again on the re-run.
  if (why === "manual") return undefined;
  if (why === "overflow") {
    return outcome.ran
      ? undefined
      : "the provider reported a context overflow and nothing could be compacted";
  }
  const freed = outcome.before - outcome.after;
  if (outcome.after > compactionLimit(core)) {
    return `the context is still over ${Math.round(core.settings.autoCompactThreshold * 100)}% of the window after compaction (about ${outcome.after} tokens)`;
  }
  if (freed < outcome.before * 0.1)
    return `compaction freed less than 10% of the context (${freed} of ${outcome.before} tokens)`;
  return undefined;
}

/**
 * `/compact` now, outside a turn (R-COMP-1): both stages whatever the size. The summary request's
 * usage is published as `usage` events, and its compaction record carries a `bill`: the ledger
 * gives it a row of its own at once (R-REC-8).
 * Cancellation (`signal`) rejects with the provider's `cancelled` error; a shed already committed stays.
 */
export async function compactNow(
  core: SessionCore,
  signal: AbortSignal,
): Promise<{ before: number; after: number }> {
  const before = contextEstimate(core);
  await compact(core, true, {
    signal,
    onModelCall: () => {},
    onUsage: (u) => core.publish({ type: "usage", ...toUsageFields(u) }),
    outOfTurn: { startedAt: new Date() },
  });
  return { before, after: contextEstimate(core) };
}
