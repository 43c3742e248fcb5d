// Compaction (SPEC §7): two stages recorded as `compaction` records and applied by the fold.
// Shed (compaction-shed.ts) is deterministic and free. Summarize runs only when shedding was not
// enough: older closed turns, then — when the open turn alone is too big — the open turn's older
// rounds, become a model-written summary (compaction-range.ts picks them). Neither touches the
// unclosed item nor splits a tool call from its result (R-COMP-3).
import { callModel } from "../turn/model-call.js";
import type { NormalizedRequest } from "../../provider/types.js";
import { compactionLimit, contextEstimate, estimateTokens } from "./compaction-estimate.js";
import { closedTurnsRange, openTurnRange, type SummaryRange } from "./compaction-range.js";
import { planOversize, planShed, type ShedPlan } from "./compaction-shed.js";
import { billFailedSummary, billOutOfTurn, type SummarySpent } from "./compaction-bill.js";
import { toUsageFields } from "../event-fields.js";
import type { SessionCore } from "../core.js";
import type { Message } from "../../vocab/messages.js";
import { addUsage, emptyUsage, type Usage } from "../../vocab/usage.js";

export { compactionLimit, contextEstimate, estimateTokens, overBudget } from "./compaction-estimate.js";

/**
 * Rounds at the end of the context that shedding keeps: three when that is enough, else only the
 * newest, whose results the model asked for last (shedding those would be amnesia).
 */
const KEEP_RECENT_ROUNDS = [3, 1];
/** R-COMP-4: a compaction must free at least this share of the context, or the turn stops. */
const MIN_FREED = 0.1;
/**
 * Summary requests one compaction may make when each fits only part of the history: enough for a
 * history about ten windows large, and a bound on what one compaction can cost.
 */
const MAX_SUMMARY_PASSES = 10;
/** Share of the limit the context is brought to when the newest round's results must be cut. */
const OVERSIZE_TARGET = 0.8;

const SUMMARY_INSTRUCTION =
  "Summarize the conversation above so the work can continue without it. Keep: the user's goals and " +
  "constraints, decisions made and why, files read or changed (with paths), commands run and their " +
  "outcomes, errors still open, and the next steps. Name turn numbers. Be concise; no preamble.";
const OPEN_TURN_INSTRUCTION =
  "Summarize the work done so far on the request above so it can continue without the rounds shown. " +
  "The request stays in the context verbatim and the newest rounds will follow your summary verbatim. " +
  "Keep: decisions made and why, files read or changed (with paths), commands run and their outcomes, " +
  "errors still open, what is done and what remains. Name round numbers. Be concise; no preamble.";

export interface CompactionOutcome {
  /** Size before and after, on one scale (R-COMP-4): see `compact`. */
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

/**
 * Runs shed, then summarize while still over budget or while less than 10% was freed (or every
 * stage when `force`, as /compact and a provider overflow do).
 */
export async function compact(
  core: SessionCore,
  force: boolean,
  hooks: CompactionHooks,
): Promise<CompactionOutcome> {
  // R-COMP-4, one scale: the estimate, scaled up by how much larger the provider's last reported
  // prompt was than the estimate, so before and after are both "reported-sized" and a shed that
  // removed most of the estimated context also removed most of the real request.
  const reported = core.lastRoundUsage?.prompt ?? 0;
  const first = contextEstimate(core);
  const scale = first > 0 ? Math.max(1, reported / first) : 1;
  const size = () => Math.ceil(contextEstimate(core) * scale);
  const before = size();
  core.lastRoundUsage = null;
  const limit = compactionLimit(core);
  const enough = () => !force && size() <= limit && before - size() >= before * MIN_FREED;
  let ran = false;
  for (const keep of KEEP_RECENT_ROUNDS) {
    const shed = planShed(core, keep);
    if (shed) {
      commitShed(core, shed);
      ran = true;
    }
    if (enough()) break;
  }
  // Older closed turns first; the open turn's rounds only when that was not enough. A summary
  // request must fit the window, so a history several windows large (a long session resumed)
  // is summarized a window at a time, each summary folding in the one before it, within this one
  // compaction — while each pass frees at least 10%, and at most MAX_SUMMARY_PASSES times.
  for (const plan of [closedTurnsRange, openTurnRange]) {
    for (let pass = 0; pass < MAX_SUMMARY_PASSES; pass++) {
      // A forced compaction (/compact) summarizes once, and again only while still over the limit.
      if (pass === 0 ? enough() : force ? size() <= limit : enough()) break;
      const range = plan(core);
      if (!range) break;
      const previous = contextEstimate(core);
      await summarizeRange(core, range, hooks);
      ran = true;
      // Another pass only after one that paid off (R-COMP-4's 10%, per pass): never a string of
      // summary requests that each free a sliver.
      if (previous - contextEstimate(core) < previous * MIN_FREED) break;
    }
  }
  // Still over: the newest round's own results are too big for the window. Cut them to fit, with
  // room to spare for the next reply, rather than stop a turn that can go on by paging with recall.
  if (size() > limit) {
    const over = (target: number) => Math.ceil((contextEstimate(core) - target / scale) * 4);
    const oversize = planOversize(core, { chars: over(limit), wantChars: over(limit * OVERSIZE_TARGET) });
    if (oversize) {
      commitShed(core, oversize);
      ran = true;
    }
  }
  return { before, after: size(), ran };
}

function commitShed(core: SessionCore, shed: ShedPlan): void {
  const seqs = Object.keys(shed.placeholders).map(Number);
  const start = contextEstimate(core);
  core.commit({
    type: "compaction",
    stage: "shed",
    fromSeq: Math.min(...seqs),
    toSeq: Math.max(...seqs),
    placeholders: shed.placeholders,
    ...(Object.keys(shed.arguments).length > 0 ? { arguments: shed.arguments } : {}),
    beforeTokens: start,
    afterTokens: Math.max(0, start - shed.saved),
  });
  publishCompaction(core, "shed", start);
}

async function summarizeRange(core: SessionCore, range: SummaryRange, hooks: CompactionHooks): Promise<void> {
  const start = contextEstimate(core);
  const spent: SummarySpent = { usage: null, modelCalls: 0 };
  let summary: string;
  try {
    summary = await summarize(core, range, hooks, spent);
  } catch (err) {
    if (hooks.outOfTurn && spent.usage) billFailedSummary(core, range, start, spent, hooks.outOfTurn, err);
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
  range: SummaryRange,
  hooks: CompactionHooks,
  spent: SummarySpent,
): Promise<string> {
  const instruction = range.openTurn ? OPEN_TURN_INSTRUCTION : SUMMARY_INSTRUCTION;
  const request: NormalizedRequest = {
    ...core.buildRequest(),
    // The history may hold tool calls, which need the definitions on some protocols (R-COMP-2).
    toolChoice: "none",
    messages: [
      ...core.requests.hydrateMessages(range.history),
      { role: "user", content: [{ type: "text", text: instruction }] },
    ],
  };
  const result = await callModel(core.settings, core.adapter, request, {
    signal: hooks.signal,
    onAttemptStart: () => {
      spent.modelCalls++;
      hooks.onModelCall();
    },
    onAttemptUsage: (u) => {
      // Every attempt that reported usage was billed: the record keeps their sum.
      spent.usage = addUsage(spent.usage ?? emptyUsage(), u);
      hooks.onUsage(u);
    },
  });
  const how = range.openTurn
    ? `recall {"turn": N, "round": R} reads one round`
    : `recall {"turn": N} reads a turn`;
  return `[Summary of ${range.label}, written by compaction. The full text is archived: ${how}.]\n${result.text.trim()}`;
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
  if (freed < outcome.before * MIN_FREED)
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
