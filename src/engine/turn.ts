// The turn loop (R-TURN-1): commit the user message, then rounds of
// request → stream with retry → finish/budget checks → commit assistant → tool batch → commit results,
// until a round asks for no tools or a stop applies. It only commits records and publishes events;
// front ends never see anything else.
import { addUsage, emptyUsage } from "../config/pricing.js";
import { ProviderError } from "../provider/errors.js";
import { DurationLimitError, streamWithRetry } from "../provider/retry.js";
import type { ContentPart, StreamResult, ToolCall, Usage } from "../provider/types.js";
import type { StopReason } from "../record/types.js";
import type { ToolResult } from "../tools/types.js";
import { TurnBudget } from "./budget.js";
import { compactTurnContext, overBudget } from "./compaction.js";
import { toUsageFields } from "./convert.js";
import type { RoundAttempts, SessionCore } from "./core.js";
import type { TurnError, TurnOutcome } from "./stop.js";
import { runToolBatch } from "./tool-batch.js";

/** The turn whose `yyy` answer still holds, per session: a `/retry` of that turn keeps it (R-BUD-3). */
const autoContinueTurn = new WeakMap<SessionCore, number>();

class TurnStop {
  constructor(
    readonly reason: StopReason,
    readonly error?: TurnError,
  ) {}
}

export interface TurnInput {
  content: ContentPart[];
  /** `/retry`: continue the last turn with its committed user message instead of a new one. */
  retry?: boolean;
  /** `/compact` before the first round (`tern run --compact`): both stages, whatever the size. */
  compactFirst?: boolean;
}

export async function runTurn(
  core: SessionCore,
  input: TurnInput,
  signal: AbortSignal,
): Promise<TurnOutcome> {
  const startedAt = new Date();
  const started = Date.now();
  const turn = input.retry && core.fold.lastTurn > 0 ? core.fold.lastTurn : core.fold.lastTurn + 1;
  const budget = new TurnBudget(
    core.settings.executionBudget,
    core.hooks.onLimit,
    input.retry === true && autoContinueTurn.get(core) === turn,
  );
  // This run's counts: a `/retry` writes another turn_end for the same turn, and the ledger adds
  // the runs up (R-REC-8), so each run counts only its own requests.
  const counts = { rounds: 0, modelCalls: 0, toolCalls: 0, toolErrors: 0 };
  let usage: Usage = emptyUsage();
  let finalText = "";
  let truncationContinues = 0;
  let usedTodoTool = false;

  // One controller for the whole turn: user cancel and the duration budget both abort it.
  const abort = new AbortController();
  let durationHit = false;
  const onOuterAbort = () => abort.abort();
  signal.addEventListener("abort", onOuterAbort, { once: true });
  if (signal.aborted) abort.abort();
  const durationMs = budget.durationMs;
  const durationTimer =
    durationMs === null
      ? undefined
      : setTimeout(() => {
          durationHit = true;
          const seconds = durationMs / 1000;
          core.publish({ type: "limit_reached", limit: "duration", used: seconds, allowed: seconds });
          abort.abort();
        }, durationMs);

  core.readTracker.reset();
  if (!input.retry) {
    core.checkpoints?.beforeTurn(turn);
    core.commitUserPrompt(turn, input.content);
  }
  core.publish({ type: "turn_start", turn });
  core.addTodoReminderIfOwed(turn);

  const stopFromAbort = () => new TurnStop(durationHit ? "duration_limit_reached" : "cancelled");
  const onUsage = (u: Usage) => {
    usage = addUsage(usage, u);
    core.publish({ type: "usage", ...toUsageFields(u) });
  };
  const runCompaction = async (why: "threshold" | "overflow" | "manual"): Promise<void> => {
    const failure = await compactTurnContext(core, why, {
      signal: abort.signal,
      onModelCall: () => counts.modelCalls++,
      onUsage,
    }).catch((err) => {
      throw toTurnStop(err, abort.signal.aborted, durationHit);
    });
    if (failure) throw new TurnStop("context_overflow", { class: "context_overflow", message: failure });
  };
  let overflowCompacted = false;
  let stop: TurnStop;
  try {
    if (input.compactFirst) await runCompaction("manual");
    for (let round = 1; ; round++) {
      await core.syncTools?.(abort.signal);
      if (abort.signal.aborted) throw stopFromAbort();
      if (overBudget(core)) await runCompaction("threshold");
      const fits = await budget.allowRound((used, allowed) =>
        core.publish({ type: "limit_reached", limit: "model_calls", used, allowed }),
      );
      if (!fits) throw new TurnStop("model_call_limit_reached");
      budget.roundsStarted++;
      core.publish({ type: "round_start", turn, round });

      const spent: RoundAttempts = { attempts: 0, failedUsage: null };
      const result = await streamRound(core, round, abort.signal, started, durationMs, counts, spent, (u) => {
        onUsage(u);
        core.lastRoundUsage = u;
      }).catch((err) => toTurnStop(err, abort.signal.aborted, durationHit));
      if (result instanceof TurnStop) {
        // R-COMP-4: a provider overflow gets one compaction and one re-run of the round.
        if (result.reason !== "context_overflow" || overflowCompacted) throw result;
        overflowCompacted = true;
        core.publish({
          type: "notice",
          text: "the provider reported a context overflow: compacting and retrying the round",
        });
        // Nothing to compact: the provider's own overflow error is the one to report.
        await runCompaction("overflow").catch((err) => {
          throw err instanceof TurnStop && err.reason === "context_overflow" ? result : err;
        });
        round--;
        continue;
      }
      counts.rounds++;

      let calls = uniqueCallIds(result.toolCalls);
      let stopAfterCommit: TurnStop | undefined;
      if (result.finish === "length") {
        calls = [];
        if (truncationContinues >= core.settings.maxTruncationContinues)
          stopAfterCommit = new TurnStop("output_truncated");
      } else if (result.finish === "content_filter") {
        calls = [];
        stopAfterCommit = new TurnStop("content_filtered");
      } else if (result.finish !== "stop" && result.finish !== "tool_calls") {
        calls = [];
        const message = `Model stopped with finish reason '${result.rawFinish ?? result.finish}'`;
        stopAfterCommit = new TurnStop("failed", { class: "finish_reason", message });
      } else if (calls.length > 0) {
        const fitsBatch = await budget.allowBatch(calls.length, (used, allowed) =>
          core.publish({ type: "limit_reached", limit: "tool_calls", used, allowed }),
        );
        if (!fitsBatch) {
          calls = [];
          stopAfterCommit = new TurnStop("tool_call_limit_reached");
        }
      }

      core.commitAssistant(turn, round, { ...result, toolCalls: calls }, spent);
      finalText = result.text;
      if (stopAfterCommit) throw stopAfterCommit;
      if (result.finish === "length") {
        truncationContinues++;
        core.commitNotice(
          turn,
          "Your previous reply was cut off at the output token limit. Continue exactly where it stopped.",
        );
        continue;
      }
      if (calls.length === 0) {
        // R-COMP-1: after a completed turn, consider compaction again; a failure here is no stop.
        if (overBudget(core)) await runCompaction("threshold").catch(() => undefined);
        throw new TurnStop("completed");
      }

      budget.toolCallsRun += calls.length;
      counts.toolCalls += calls.length;
      if (calls.some((c) => c.name === "todo_write")) usedTodoTool = true;
      // Tools may change files: the snapshot before them must have been taken first.
      await core.checkpoints?.beforeBatch();
      const results: ToolResult[] = await runToolBatch(core, turn, calls, abort.signal);
      core.checkpoints?.afterBatch(turn, round, calls, results);
      counts.toolErrors += results.filter((r) => r.outcome === "error" || r.outcome === "interrupted").length;
      if (abort.signal.aborted) throw stopFromAbort();
      core.commitQueuedFollowUp(turn);
    }
  } catch (err) {
    stop = err instanceof TurnStop ? err : new TurnStop("failed", internalError(err));
    if (stop.error) core.publish({ type: "error", ...stop.error });
  } finally {
    if (durationTimer) clearTimeout(durationTimer);
    signal.removeEventListener("abort", onOuterAbort);
  }

  if (budget.autoContinue) autoContinueTurn.set(core, turn);
  else autoContinueTurn.delete(core);
  // `/yolo once` covers exactly one turn, however it ended.
  core.policy.setYoloOnce(false);
  core.quiesce(stop.reason === "cancelled" ? "cancelled" : "replied");
  // The turn's last snapshot is named before its turn_end, so `tern undo` right after finds it.
  await core.checkpoints?.settle();
  const durationMsTotal = Date.now() - started;
  core.commitTurnEnd({
    turn,
    stopReason: stop.reason,
    ...counts,
    usage,
    durationMs: durationMsTotal,
    startedAt: startedAt.toISOString(),
    error: stop.error,
  });
  core.noteTodoUse(usedTodoTool);
  return { turn, stopReason: stop.reason, finalText, error: stop.error };
}

async function streamRound(
  core: SessionCore,
  round: number,
  signal: AbortSignal,
  turnStarted: number,
  durationMs: number | null,
  counts: { modelCalls: number },
  spent: RoundAttempts,
  onUsage: (usage: Usage) => void,
): Promise<StreamResult> {
  const request = core.buildRequest();
  // Usage per attempt: all but the answered attempt's are the round's failed usage.
  const byAttempt = new Map<number, Usage>();
  const result = await streamWithRetry(core.adapter, request, {
    retry: core.settings.retry,
    signal,
    idleTimeoutMs: core.settings.streamIdleTimeoutSeconds * 1000,
    deadline: durationMs === null ? null : turnStarted + durationMs,
    onAttemptStart: () => {
      counts.modelCalls++;
      spent.attempts++;
    },
    onAttemptUsage: (usage, attempt) => {
      byAttempt.set(attempt, usage);
      onUsage(usage);
    },
    onEvent: (event) => {
      if (event.type === "text_delta") core.publish({ type: "text_delta", text: event.text });
      else if (event.type === "reasoning_delta") core.publish({ type: "reasoning_delta", text: event.text });
      else if (event.type === "hosted_tool")
        core.publish({ type: "hosted_tool", name: event.name, status: event.status, detail: event.detail });
    },
    onDiscard: (attempt) => core.publish({ type: "stream_discarded", round, attempt }),
    onRetry: (info) =>
      core.publish({
        type: "retry_scheduled",
        attempt: info.attempt,
        delay_ms: info.delayMs,
        reason: info.reason,
        status: info.status,
        message: info.operatorMessage,
      }),
  });
  // The answered attempt's usage is what the record keeps with the answer (it may have come in
  // a usage event rather than the result).
  const answered = byAttempt.get(spent.attempts) ?? result.usage;
  byAttempt.delete(spent.attempts);
  for (const u of byAttempt.values()) spent.failedUsage = addUsage(spent.failedUsage ?? emptyUsage(), u);
  return { ...result, usage: answered };
}

function toTurnStop(err: unknown, aborted: boolean, durationHit: boolean): TurnStop {
  if (err instanceof TurnStop) return err;
  if (err instanceof DurationLimitError)
    return new TurnStop("duration_limit_reached", durationStopError(err));
  if (aborted) return new TurnStop(durationHit ? "duration_limit_reached" : "cancelled");
  if (err instanceof ProviderError) {
    if (err.errorClass === "cancelled") return new TurnStop("cancelled");
    const error: TurnError = { class: err.errorClass, message: err.message };
    if (err.status !== undefined) error.status = err.status;
    if (err.errorClass === "context_overflow") return new TurnStop("context_overflow", error);
    return new TurnStop("failed", error);
  }
  return new TurnStop("failed", internalError(err));
}

/** R-RETRY-2: a stop caused by the wait before a retry says how long that wait was, and who asked for it. */
function durationStopError(err: DurationLimitError): TurnError {
  const last = err.lastError;
  const seconds = Math.round(err.delayMs / 100) / 10;
  const wait =
    last.retryAfterMs !== undefined
      ? `the provider asked to wait ${seconds}s before retrying (retry-after)`
      : `the next retry was due in ${seconds}s`;
  const error: TurnError = {
    class: last.errorClass,
    message: `${wait}, which would pass the turn's duration limit; last error: ${last.message}`,
  };
  if (last.status !== undefined) error.status = last.status;
  return error;
}

function internalError(err: unknown): TurnError {
  const message = err instanceof Error ? err.message : String(err);
  return { class: "internal", message };
}

/**
 * A model may send two calls with one id. Each call must get exactly one result and the next
 * request must name each call once (both wire protocols reject repeated ids), so a repeated or
 * empty id gets a suffix that makes it unique within the message.
 */
export function uniqueCallIds(calls: ToolCall[]): ToolCall[] {
  const seen = new Set<string>();
  let changed = false;
  const out = calls.map((call) => {
    let id = call.id || "call";
    for (let n = 2; seen.has(id); n++) id = `${call.id || "call"}_${n}`;
    seen.add(id);
    if (id === call.id) return call;
    changed = true;
    return { ...call, id };
  });
  return changed ? out : calls;
}
