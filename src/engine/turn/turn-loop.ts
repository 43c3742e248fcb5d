// The turn loop (R-TURN-1) as three steps that return values: start (commit the user message),
// rounds (request → stream → finish and budget checks → commit the answer → tool batch, until a
// round asks for no tools or a stop applies), end (quiesce, commit turn_end). The stop is a value.
// It reaches the session only through `TurnPorts`, so it runs in unit tests without HTTP.
import { TurnBudget } from "./budget.js";
import { allowSpend } from "./cost-cap.js";
import { endTurn } from "./turn-end.js";
import type { TurnState } from "./turn-state.js";
import { admitCalls } from "./turn-admit.js";
import { continuationNote, MAX_STOP_CONTINUES, PAUSED } from "./turn-continue.js";
import { judgeFinalAnswer } from "./output-contract.js";
import { toUsageFields } from "../event-fields.js";
import type { TurnOutcome } from "../door/outcome.js";
import type { RoundAnswer, TurnInput, TurnPorts } from "./turn-ports.js";
import { internalError, stopFromError, stopWith, type TurnStop } from "./turn-stop.js";
import { addUsage, emptyUsage, type Usage } from "../../vocab/usage.js";
import { monotonicMs } from "../../vocab/clock.js";
import { addCost, computeCost } from "../../vocab/cost.js";

/** One turn's abort: the user's cancel and the duration budget both end it. */
interface TurnAbort {
  signal: AbortSignal;
  durationHit(): boolean;
  deadline: number | null;
}

type RoundStep = { next: "round" } | { next: "same_round" } | { next: "stop"; stop: TurnStop };

export async function runTurnLoop(
  ports: TurnPorts,
  input: TurnInput,
  signal: AbortSignal,
): Promise<TurnOutcome> {
  const state = startTurn(ports, input);
  const stop = state.startFailure ?? (await runRounds(ports, state, input, signal));
  return endTurn(ports, state, stop);
}

function startTurn(ports: TurnPorts, input: TurnInput): TurnState {
  const last = ports.lastTurn();
  const turn = input.retry && last > 0 ? last : last + 1;
  const keepsYyy = input.retry === true && ports.autoContinueTurn === turn;
  const state: TurnState = {
    turn,
    startedAt: new Date(),
    started: monotonicMs(),
    budget: new TurnBudget(ports.executionBudget, ports.onLimit, keepsYyy),
    counts: { rounds: 0, modelCalls: 0, toolCalls: 0, toolErrors: 0 },
    usage: emptyUsage(),
    finalText: "",
    truncationContinues: 0,
    pauses: 0,
    usedTodoTool: false,
    overflowCompacted: false,
    stopContinues: 0,
    recorded: input.retry === true,
    continuing: false,
    toolRounds: 0,
  };
  if (input.output) state.output = { contract: input.output, corrections: 0 };
  ports.beginTurn();
  try {
    if (!input.retry) {
      ports.checkpoints?.beforeTurn(turn);
      ports.commitUserPrompt(turn, input.content);
      state.recorded = true;
      for (const note of input.notes ?? []) ports.commitNotice(turn, note);
    }
    ports.publish({ type: "turn_start", turn });
    ports.addTodoReminderIfOwed(turn);
  } catch (err) {
    if (!state.recorded) ports.publish({ type: "turn_start", turn });
    state.startFailure = stopWith("failed", internalError(err));
    ports.publish({ type: "error", ...state.startFailure.error! });
  }
  return state;
}

async function runRounds(
  ports: TurnPorts,
  state: TurnState,
  input: TurnInput,
  outer: AbortSignal,
): Promise<TurnStop> {
  const controller = new AbortController();
  let durationHit = false;
  const onOuterAbort = () => controller.abort();
  outer.addEventListener("abort", onOuterAbort, { once: true });
  if (outer.aborted) controller.abort();
  const durationMs = state.budget.durationMs;
  const timer =
    durationMs === null
      ? undefined
      : setTimeout(() => {
          durationHit = true;
          const seconds = durationMs / 1000;
          ports.publish({ type: "limit_reached", limit: "duration", used: seconds, allowed: seconds });
          controller.abort();
        }, durationMs);
  const abort: TurnAbort = {
    signal: controller.signal,
    durationHit: () => durationHit,
    deadline: durationMs === null ? null : state.started + durationMs,
  };
  let stop: TurnStop;
  try {
    stop = input.compactFirst
      ? ((await compactStep(ports, state, abort, "manual")) ?? (await rounds()))
      : await rounds();
  } catch (err) {
    stop = stopWith("failed", internalError(err));
  } finally {
    if (timer) clearTimeout(timer);
    outer.removeEventListener("abort", onOuterAbort);
  }
  if (stop.error) ports.publish({ type: "error", ...stop.error });
  return stop;

  async function rounds(): Promise<TurnStop> {
    for (let round = 1; ; ) {
      const step = await runRound(ports, state, abort, round);
      if (step.next === "stop") return step.stop;
      if (step.next === "round") round++;
    }
  }
}

async function runRound(
  ports: TurnPorts,
  state: TurnState,
  abort: TurnAbort,
  round: number,
): Promise<RoundStep> {
  const { turn, budget } = state;
  await ports.syncTools?.(abort.signal);
  if (abort.signal.aborted) return stopped(abortStop(abort));
  if (ports.overBudget()) {
    const stop = await compactStep(ports, state, abort, "threshold");
    if (stop) return stopped(stop);
    // What the compaction opened (recall-offer.ts) joins this round's request, not the next one:
    // the prefix changes once.
    await ports.syncTools?.(abort.signal);
  }
  const fits = await budget.allowRound((used, allowed) =>
    ports.publish({ type: "limit_reached", limit: "model_calls", used, allowed }),
  );
  if (!fits) return stopped(stopWith("model_call_limit_reached"));
  if (!(await allowSpend(ports, state))) return stopped(stopWith("cost_limit_reached"));
  budget.roundsStarted++;
  ports.publish({ type: "round_start", turn, round });

  let answer: RoundAnswer;
  try {
    answer = await ports.stream(round, abort.signal, abort.deadline, {
      onAttemptStart: () => state.counts.modelCalls++,
      onUsage: (u) => addTurnUsage(ports, state, u),
    });
  } catch (err) {
    const stop = stopFromError(err, abort.signal.aborted, abort.durationHit());
    // R-COMP-4: a provider overflow gets one compaction and one re-run of the round.
    if (stop.reason !== "context_overflow" || state.overflowCompacted) return stopped(stop);
    state.overflowCompacted = true;
    ports.publish({
      type: "notice",
      text: "the provider reported a context overflow: compacting and retrying the round",
    });
    const compactStop = await compactStep(ports, state, abort, "overflow");
    // Nothing to compact: the provider's own overflow error is the one to report.
    if (compactStop) return stopped(compactStop.reason === "context_overflow" ? stop : compactStop);
    return { next: "same_round" };
  }
  state.counts.rounds++;
  const { result, spent } = answer;
  if (result.toolCalls.length > 0) state.toolRounds++;

  const { calls, stop: stopAfterCommit } = await admitCalls(ports, state, result);
  ports.commitAssistant(turn, round, { ...result, toolCalls: calls }, spent);
  // A reply cut at the output limit (or paused) goes on in the next round: the answer is all of it.
  state.finalText = state.continuing ? state.finalText + result.text : result.text;
  // A stream that held nothing (only `data: [DONE]`) is a legal answer, but never a silent one.
  if (!result.text && !result.reasoning && result.toolCalls.length === 0 && result.finish === "stop")
    ports.publish({ type: "notice", text: "the model's answer was empty (no text and no tool calls)" });
  if (stopAfterCommit) return stopped(stopAfterCommit);
  if (result.finish !== PAUSED) state.pauses = 0;
  const note = continuationNote(result.finish);
  state.continuing = note !== undefined;
  if (note) {
    if (result.finish === "length") state.truncationContinues++;
    ports.commitNotice(turn, note);
    return { next: "round" };
  }
  if (calls.length === 0) {
    const verdict = state.output && judgeFinalAnswer(state.output, result.text);
    if (verdict?.next === "correct") {
      ports.commitNotice(turn, verdict.note);
      return { next: "round" };
    }
    if (verdict?.next === "stop") return stopped(stopWith("output_invalid", verdict.error));
    const goOn = await stopHookNote(ports, state);
    if (goOn) {
      ports.commitNotice(turn, goOn);
      return { next: "round" };
    }
    // R-COMP-1: after a completed turn, consider compaction again; a failure here is no stop.
    if (ports.overBudget()) await compactStep(ports, state, abort, "threshold").catch(() => undefined);
    return stopped(stopWith("completed"));
  }

  budget.toolCallsRun += calls.length;
  state.counts.toolCalls += calls.length;
  if (calls.some((c) => c.name === "todo_write")) state.usedTodoTool = true;
  // Tools may change files: the snapshot before them must have been taken first.
  await ports.checkpoints?.beforeBatch(calls);
  const results = await ports.runBatch(turn, calls, abort.signal);
  ports.checkpoints?.afterBatch(turn, round, calls, results);
  state.counts.toolErrors += results.filter(
    (r) => r.outcome === "error" || r.outcome === "interrupted",
  ).length;
  if (abort.signal.aborted) return stopped(abortStop(abort));
  const plan = ports.takeDeliveredPlan?.();
  if (plan !== undefined) {
    // Planning headless ends with the plan as the answer (R-PLAN-1): no round to comment on it.
    state.finalText = plan;
    return stopped(stopWith("completed"));
  }
  await ports.commitQueuedFollowUp(turn);
  return { next: "round" };
}

/** A Stop hook may keep the turn going, at most MAX_STOP_CONTINUES times in a row (R-HOOK-3). */
async function stopHookNote(ports: TurnPorts, state: TurnState): Promise<string | undefined> {
  if (!ports.stopHook || state.stopContinues >= MAX_STOP_CONTINUES) return undefined;
  const note = await ports.stopHook(state.stopContinues > 0);
  if (note === undefined) return undefined;
  state.stopContinues++;
  return `[hook Stop] ${note}`;
}

/** Compaction inside a turn: its summary calls count as this run's model calls and usage. */
async function compactStep(
  ports: TurnPorts,
  state: TurnState,
  abort: TurnAbort,
  why: "threshold" | "overflow" | "manual",
): Promise<TurnStop | undefined> {
  try {
    const failure = await ports.compact(why, abort.signal, {
      onAttemptStart: () => state.counts.modelCalls++,
      onUsage: (u) => addTurnUsage(ports, state, u),
    });
    return failure
      ? stopWith("context_overflow", { class: "context_overflow", message: failure })
      : undefined;
  } catch (err) {
    return stopFromError(err, abort.signal.aborted, abort.durationHit());
  }
}

function addTurnUsage(ports: TurnPorts, state: TurnState, usage: Usage): void {
  state.usage = addUsage(state.usage, usage);
  // Priced per request: a long-context tier applies to a request over its size, not to a sum.
  if (ports.pricing) state.cost = addCost(state.cost ?? 0, computeCost(usage, ports.pricing()));
  ports.publish({ type: "usage", ...toUsageFields(usage) });
}

function abortStop(abort: TurnAbort): TurnStop {
  return stopWith(abort.durationHit() ? "duration_limit_reached" : "cancelled");
}

function stopped(stop: TurnStop): RoundStep {
  return { next: "stop", stop };
}
