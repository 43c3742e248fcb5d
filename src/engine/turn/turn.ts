// A turn of a live session: the loop (`turn-loop.ts`) wired to the session's record, provider,
// tools and compaction through `TurnPorts`.
import { loadCompaction } from "../compaction/index.js";
import { overBudget } from "../compaction/compaction-estimate.js";
import type { RoundAttempts } from "../committer.js";
import type { SessionCore } from "../core.js";
import type { TurnOutcome } from "../door/outcome.js";
import { callModel } from "./model-call.js";
import { enforcesSchema, schemaInstruction } from "./output-contract.js";
import { runToolBatch } from "./tool-batch.js";
import { runTurnLoop } from "./turn-loop.js";
import { joinFollowUp, limitAsker } from "../hook-prompt.js";
import { restoredFilesNote } from "../undo/restored-files-note.js";
import type { RoundAnswer, StreamHooks, TurnInput, TurnPorts } from "./turn-ports.js";
import { emptyUsage, sumUsage, type Usage } from "../../vocab/usage.js";
import type { ToolCall } from "../../vocab/messages.js";

export function runTurn(core: SessionCore, input: TurnInput, signal: AbortSignal): Promise<TurnOutcome> {
  // R-AUTO-1: a wire that enforces the schema gets it with every request; any other gets it asked for.
  const schema = input.output && enforcesSchema(core.model) ? input.output.schema : undefined;
  if (input.output && !schema && !input.retry)
    input = {
      ...input,
      content: [...input.content, { type: "text", text: schemaInstruction(input.output.schema) }],
    };
  const ports = turnPorts(core, schema);
  const { beginTurn, endYoloOnce, addTodoReminderIfOwed } = ports;
  const turnInput = input;
  ports.beginTurn = () => {
    beginTurn();
    startPromptExtras(core, turnInput);
  };
  // Read before the prompt is committed (a new prompt ends the undo history it is worked out from).
  const filesNote = restoredFilesNote(core.fold.archive);
  ports.addTodoReminderIfOwed = (turn) => {
    if (filesNote) tellFilesRestored(core, turn, filesNote);
    addTodoReminderIfOwed(turn);
  };
  ports.endYoloOnce = () => {
    endYoloOnce();
    if (turnInput.allow?.length) core.policy.setTurnAllow([]);
  };
  return runTurnLoop(ports, input, signal);
}

/**
 * What the prompt brings for its own turn: a whole file attached with `@path` counts as read
 * (R-WF-4), and a custom command's `allowed-tools` allow those calls (R-WF-2).
 */
function startPromptExtras(core: SessionCore, input: TurnInput): void {
  for (const part of input.content)
    if (part.type === "text" && part.attached)
      core.readTracker.markRead(part.attached.path, part.attached.mtimeMs);
  if (input.allow?.length) {
    const unused = core.policy.setTurnAllow(input.allow);
    if (unused.length)
      core.publish({ type: "notice", text: `allowed-tools not understood, ignored: ${unused.join(", ")}` });
  }
}

export function turnPorts(core: SessionCore, responseSchema?: Record<string, unknown>): TurnPorts {
  return {
    executionBudget: core.settings.executionBudget,
    pricing: () => core.model.info.pricing,
    maxTruncationContinues: core.settings.maxTruncationContinues,
    onLimit: limitAsker(core),
    lastTurn: () => core.fold.lastTurn,
    get autoContinueTurn() {
      return core.autoContinueTurn;
    },
    set autoContinueTurn(turn) {
      core.autoContinueTurn = turn;
    },
    publish: (event) => core.publish(event),
    beginTurn: () => core.readTracker.reset(),
    endYoloOnce: () => core.policy.setYoloOnce(false),
    commitUserPrompt: (turn, content) => core.records.userPrompt(turn, content),
    // The answer bills the round's requests; unbilled.json needs no clearing (record/unbilled.ts).
    commitAssistant: (turn, round, result, spent) => core.records.assistant(turn, round, result, spent),
    commitNotice: (turn, text) => core.records.notice(turn, text),
    addTodoReminderIfOwed: (turn) => {
      const reminder = core.todos.takeReminder();
      if (reminder) core.records.notice(turn, reminder);
    },
    // R-TURN-7: the oldest queued follow-up joins the running turn after a tool batch.
    commitQueuedFollowUp: (turn) => joinFollowUp(core, turn),
    quiesce: (reason) => core.records.quiesce(reason),
    commitTurnEnd: (end, recorded) => core.records.turnEnd(end, recorded),
    noteTodoUse: (used) => core.todos.noteUse(used),
    stream: (round, signal, deadline, hooks) =>
      streamRound(core, round, signal, deadline, hooks, responseSchema),
    runBatch: async (turn, calls, signal) => {
      const results = await runToolBatch(core, turn, calls, signal);
      addInstructionNotes(core, turn, calls);
      return results;
    },
    overBudget: () => overBudget(core),
    // Loaded when a context first needs shrinking: most runs never get there.
    compact: async (why, signal, hooks) => {
      await core.hookPoints?.preCompact(why === "manual" ? "manual" : "auto");
      return (await loadCompaction()).compactTurnContext(core, why, {
        signal,
        onModelCall: hooks.onAttemptStart,
        onUsage: hooks.onUsage,
      });
    },
    checkpoints: core.checkpoints,
    // Read at each round: servers approved during the turn (`/mcp approve`) join the next round.
    syncTools: async (signal) => {
      await core.syncTools?.(signal);
    },
    takeDeliveredPlan: () => {
      const plan = core.deliveredPlan;
      core.deliveredPlan = undefined;
      return plan;
    },
    stopHook: core.hookPoints ? (active) => core.hookPoints!.stopRequested(active) : undefined,
  };
}

/** R-UI-29: the files alone were restored since the last answer; the model is told with the prompt. */
function tellFilesRestored(core: SessionCore, turn: number, note: string): void {
  core.commit({ type: "notice", turn, text: note });
  core.publish({
    type: "notice",
    text: "the model is told the files were restored (the conversation was kept)",
  });
}

/** R-WF-1: a folder's instruction file joins after the results of the first call that touched it. */
function addInstructionNotes(core: SessionCore, turn: number, calls: ToolCall[]): void {
  const notes = core.instructionNotes;
  if (!notes) return;
  for (const note of notes.after(calls)) {
    core.commit({ type: "notice", turn, text: note.text });
    core.publish({ type: "notice", text: `instructions loaded: ${note.path}` });
  }
  for (const text of notes.warnings()) core.publish({ type: "notice", text });
}

/**
 * The round's requests so far (sent, or failed with a retry due) and the usage they reported are
 * billed with the round's answer or the turn's end, and until then kept beside the record, so a
 * crash bills them (record/unbilled.ts): a request that reported no usage still counts as a call.
 */
function keepUnbilled(core: SessionCore, byAttempt: Map<number, Usage>, attempts: number): void {
  const turn = core.fold.openTurn?.turn;
  if (turn === undefined) return;
  const usage = sumUsage(byAttempt.values()) ?? emptyUsage();
  try {
    core.unbilled.write({ turn, attempts, usage, afterSeq: core.fold.lastSeq });
  } catch {
    // A full disk: the live turn still bills them; only a crash now would miss them.
  }
}

async function streamRound(
  core: SessionCore,
  round: number,
  signal: AbortSignal,
  deadline: number | null,
  hooks: StreamHooks,
  responseSchema?: Record<string, unknown>,
): Promise<RoundAnswer> {
  const request = core.buildRequest();
  if (responseSchema) request.responseSchema = responseSchema;
  const spent: RoundAttempts = { attempts: 0, failedUsage: null };
  // Usage per attempt: all but the answered attempt's are the round's failed usage.
  const byAttempt = new Map<number, Usage>();
  const result = await callModel(core.settings, core.adapter, request, {
    signal,
    deadline,
    onAttemptStart: () => {
      hooks.onAttemptStart();
      spent.attempts++;
      keepUnbilled(core, byAttempt, spent.attempts);
    },
    onAttemptUsage: (usage, attempt) => {
      byAttempt.set(attempt, usage);
      hooks.onUsage(usage);
      core.lastRoundUsage = usage;
    },
    onEvent: (event) => {
      if (event.type === "text_delta") core.publish({ type: "text_delta", text: event.text });
      else if (event.type === "reasoning_delta") core.publish({ type: "reasoning_delta", text: event.text });
      else if (event.type === "hosted_tool")
        core.publish({ type: "hosted_tool", name: event.name, status: event.status, detail: event.detail });
    },
    onDiscard: (attempt) => core.publish({ type: "stream_discarded", round, attempt }),
    onRetry: (info) => {
      keepUnbilled(core, byAttempt, spent.attempts);
      core.publish({
        type: "retry_scheduled",
        attempt: info.attempt,
        delay_ms: info.delayMs,
        reason: info.reason,
        status: info.status,
        message: info.operatorMessage,
      });
    },
  });
  // The answered attempt's usage is what the record keeps with the answer (it may have come in
  // a usage event rather than the result).
  const answered = byAttempt.get(spent.attempts) ?? result.usage;
  byAttempt.delete(spent.attempts);
  spent.failedUsage = sumUsage(byAttempt.values());
  return { result: { ...result, usage: answered }, spent };
}
