// Compaction (SPEC §7): two stages recorded as `compaction` records and applied by the fold.
// Shed (compaction-shed.ts) is deterministic and free. Summarize runs only when shedding was not
// enough: older closed turns, then — when the open turn alone is too big — the open turn's older
// rounds, become a model-written summary (compaction-range.ts picks them, summary-run.ts writes
// it in pieces that each fit a request). Neither touches the unclosed item nor splits a tool call
// from its result (R-COMP-3). Everything here goes through the ports (compaction-ports.ts).
import { estimateTokens } from "./compaction-estimate.js";
import { compactionPorts, type CompactionHooks, type CompactionPorts } from "./compaction-ports.js";
import { closedTurnsRange, openTurnRange, type SummaryRange } from "./compaction-range.js";
import { planOversize, planShed, type ShedPlan } from "./compaction-shed.js";
import { startOutOfTurn, type SummarySpent } from "./compaction-bill.js";
import { writeSummary } from "./summary-run.js";
import { toUsageFields } from "../event-fields.js";
import type { CompactionStage } from "../door/events.js";
import type { SessionCore } from "../core.js";

export { compactionLimit, contextEstimate, estimateTokens, overBudget } from "./compaction-estimate.js";
export type { CompactionHooks } from "./compaction-ports.js";

/**
 * Rounds at the end of the context that shedding keeps: three when that is enough, else only the
 * newest, whose results the model asked for last (shedding those would be amnesia).
 */
const KEEP_RECENT_ROUNDS = [3, 1];
/** R-COMP-4: a compaction must free at least this share of the context, or the turn stops. */
const MIN_FREED = 0.1;
/**
 * Summaries of one kind of range one compaction writes: the first covers the whole range in
 * pieces; another runs only when a summary came out bigger than planned for.
 */
const MAX_SUMMARY_PASSES = 3;
/** Share of the limit the context is brought to when the newest round's results must be cut. */
const OVERSIZE_TARGET = 0.8;

export interface CompactionOutcome {
  /** Size before and after, on one scale (R-COMP-4): see `compact`. */
  before: number;
  after: number;
  /** False when a needed stage could not run (nothing to shed or summarize, or the summary failed). */
  ran: boolean;
}

/**
 * Runs shed, then summarize while still over budget or while less than 10% was freed (or every
 * stage when `force`, as /compact and a provider overflow do).
 */
export async function compact(ports: CompactionPorts, force: boolean): Promise<CompactionOutcome> {
  // R-COMP-4, one scale: the estimate, scaled up by how much larger the provider's last reported
  // prompt was than the estimate, so before and after are both "reported-sized" and a shed that
  // removed most of the estimated context also removed most of the real request.
  const reported = ports.takeReportedPrompt();
  const estimate = () => ports.view().contextTokens;
  const first = estimate();
  const scale = first > 0 ? Math.max(1, reported / first) : 1;
  const size = () => Math.ceil(estimate() * scale);
  const before = size();
  const limit = ports.view().limit;
  const enough = () => !force && size() <= limit && before - size() >= before * MIN_FREED;
  let ran = false;
  for (const keep of KEEP_RECENT_ROUNDS) {
    const shed = planShed(ports.view(), keep);
    if (shed) {
      commitShed(ports, shed);
      ran = true;
    }
    if (enough()) break;
  }
  // Older closed turns first; the open turn's rounds only when that was not enough. A range too
  // big for one request is summarized in pieces within one pass, so one pass brings a history of
  // any size under the limit; another pass only when the summary came out bigger than planned.
  for (const plan of [closedTurnsRange, openTurnRange]) {
    for (let pass = 0; pass < MAX_SUMMARY_PASSES; pass++) {
      // A forced compaction (/compact) summarizes once, and again only while still over the limit.
      if (pass === 0 ? enough() : force ? size() <= limit : enough()) break;
      const view = ports.view();
      const range = plan(view);
      if (!range) break;
      if (!(await summarizeRange(ports, range))) break;
      ran = true;
      // Another pass only after one that paid off (R-COMP-4's 10%, per pass).
      if (view.contextTokens - estimate() < view.contextTokens * MIN_FREED) break;
    }
  }
  // Still over: the newest round's own results are too big for the window. Cut them to fit, with
  // room to spare for the next reply, rather than stop a turn that can go on by paging with recall.
  if (size() > limit) {
    // §7 (amended): every old result becomes its placeholder before any recent one is cut.
    const rest = planShed(ports.view(), 1, 0);
    if (rest) {
      commitShed(ports, rest);
      ran = true;
    }
  }
  if (size() > limit) {
    const over = (target: number) => Math.ceil((estimate() - target / scale) * 4);
    const oversize = planOversize(ports.view(), {
      chars: over(limit),
      wantChars: over(limit * OVERSIZE_TARGET),
    });
    if (oversize) {
      commitShed(ports, oversize);
      ran = true;
    }
  }
  return { before, after: size(), ran };
}

function commitShed(ports: CompactionPorts, shed: ShedPlan): void {
  const seqs = Object.keys(shed.placeholders).map(Number);
  const start = ports.view().contextTokens;
  ports.commit({
    type: "compaction",
    stage: "shed",
    fromSeq: Math.min(...seqs),
    toSeq: Math.max(...seqs),
    placeholders: shed.placeholders,
    ...(Object.keys(shed.arguments).length > 0 ? { arguments: shed.arguments } : {}),
    beforeTokens: start,
    afterTokens: Math.max(0, start - shed.saved),
  });
  publishCompaction(ports, "shed", start);
}

/** Summarizes `range` and applies the summary when it is smaller than what it replaces (R-COMP-2). */
async function summarizeRange(ports: CompactionPorts, range: SummaryRange): Promise<boolean> {
  const view = ports.view();
  const start = view.contextTokens;
  const spent: SummarySpent = { usage: null, modelCalls: 0 };
  let summary: string;
  try {
    summary = await writeSummary(ports, view, range, spent);
  } catch (err) {
    commitUnapplied(ports, range, start, spent, err instanceof Error ? err.message : String(err));
    throw err;
  }
  const summaryTokens = estimateTokens(summary, "", [{ role: "user", content: [] }]);
  if (summaryTokens >= range.replacedTokens) {
    const why =
      `the summary of ${range.label} (about ${summaryTokens} tokens) is not smaller than what it ` +
      `would replace (about ${range.replacedTokens} tokens), so the original is kept`;
    commitUnapplied(ports, range, start, spent, why);
    ports.publish({ type: "notice", text: `compaction: ${why}` });
    return false;
  }
  const { usage, modelCalls } = spent;
  const line = ports.commit({
    type: "compaction",
    stage: "summarize",
    fromSeq: range.from,
    toSeq: range.to,
    summary,
    beforeTokens: start,
    afterTokens: Math.max(0, start - range.replacedTokens + summaryTokens),
    usage,
    modelCalls,
    ...(ports.outOfTurn ? { bill: ports.outOfTurn.bill(usage) } : {}),
  });
  ports.outOfTurn?.onBilled(line);
  publishCompaction(ports, "summarize", start, line.type === "compaction" ? line.bill?.cost : undefined);
  return true;
}

/**
 * A `/compact` summary that was not applied (the request failed, or the summary was not smaller)
 * after the provider reported usage was still billed: a compaction line without a summary (it
 * replaces nothing) carries that bill (R-REC-8). Inside a turn the turn's end bills it.
 */
function commitUnapplied(
  ports: CompactionPorts,
  range: SummaryRange,
  estimate: number,
  spent: SummarySpent,
  why: string,
): void {
  if (!ports.outOfTurn || !spent.usage) return;
  const line = ports.commit({
    type: "compaction",
    stage: "summarize",
    fromSeq: range.from,
    toSeq: range.to,
    beforeTokens: estimate,
    afterTokens: estimate,
    usage: spent.usage,
    modelCalls: spent.modelCalls,
    bill: ports.outOfTurn.bill(spent.usage),
    failed: why,
  });
  ports.outOfTurn.onBilled(line);
}

/** `cost` only for a summary billed on its own row (outside a turn), so front ends can add it. */
function publishCompaction(
  ports: CompactionPorts,
  stage: CompactionStage,
  before: number,
  cost?: number | null,
): void {
  ports.publish({
    type: "compaction",
    stage,
    before_tokens: before,
    after_tokens: ports.view().contextTokens,
    ...(cost !== undefined ? { cost } : {}),
  });
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
  const ports = compactionPorts(core, hooks);
  const outcome = await compact(ports, why !== "threshold");
  // /compact with nothing to compact is no failure; a provider overflow with nothing to compact
  // would only overflow again on the re-run.
  if (why === "manual") return undefined;
  if (why === "overflow") {
    return outcome.ran
      ? undefined
      : "the provider reported a context overflow and nothing could be compacted";
  }
  const freed = outcome.before - outcome.after;
  if (outcome.after > ports.view().limit) {
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
  const ports = compactionPorts(core, {
    signal,
    onModelCall: () => {},
    onUsage: (u) => core.publish({ type: "usage", ...toUsageFields(u) }),
    outOfTurn: startOutOfTurn(),
  });
  const before = ports.view().contextTokens;
  await compact(ports, true);
  return { before, after: ports.view().contextTokens };
}
