// The one place compaction meets a live session: a snapshot of the context to plan from, the
// commit and publish of its records, and the summary request. Planning (shed, ranges, pieces)
// never sees the session; unit tests hand `compact` plain ports instead.
import { callModel } from "../turn/model-call.js";
import type { CompactionBill, NewRecord, RecordLine } from "../../record/types.js";
import type { EngineEvent } from "../door/events.js";
import type { SessionCore } from "../core.js";
import { compactionLimit, contextEstimate, fixedEstimate, requestLimit } from "./compaction-estimate.js";
import { roundIndexOf, type CompactionView } from "./compaction-view.js";
import { billOutOfTurn, type OutOfTurn, type SummarySpent } from "./compaction-bill.js";
import type { Message } from "../../vocab/messages.js";
import { addUsage, emptyUsage, type Usage } from "../../vocab/usage.js";

export interface CompactionPorts {
  /** A fresh snapshot of the model context and the limits (it changes with every commit). */
  view(): CompactionView;
  /** The prompt tokens the provider reported for the last round (0 = none), taken once: compaction resets it. */
  takeReportedPrompt(): number;
  commit(record: NewRecord): RecordLine;
  publish(event: EngineEvent): void;
  /**
   * One summary request: `history` then the instruction, no tools run (the definitions stay,
   * `toolChoice: "none"`). Every attempt's usage and count is added to `spent` as it happens.
   */
  requestSummary(history: readonly Message[], instruction: string, spent: SummarySpent): Promise<string>;
  /** Set when run outside a turn (`/compact`): the bill its record carries, for a ledger row of its own. */
  outOfTurn?: { bill(usage: Usage | null): CompactionBill; onBilled(line: RecordLine): void };
}

export interface CompactionHooks {
  signal: AbortSignal;
  onModelCall(): void;
  onUsage(usage: Usage): void;
  /** Set when run outside a turn (`/compact`): the summary gets a ledger row of its own (R-REC-8). */
  outOfTurn?: OutOfTurn;
}

/** The ports of a live session: the only code in compaction/ that reads `SessionCore`. */
export function compactionPorts(core: SessionCore, hooks: CompactionHooks): CompactionPorts {
  // The archive only grows by compaction lines while compacting, which add no rounds.
  let rounds: CompactionView["rounds"] | undefined;
  const outOfTurn = hooks.outOfTurn;
  return {
    view: () => {
      rounds ??= roundIndexOf(core.fold.archive);
      return {
        entries: core.fold.contextEntries,
        openTurn: core.fold.openTurn?.turn,
        openCalls: core.fold.openCalls.length,
        rounds,
        fixedTokens: fixedEstimate(core),
        contextTokens: contextEstimate(core),
        limit: compactionLimit(core),
        requestLimit: requestLimit(core),
      };
    },
    takeReportedPrompt: () => {
      const reported = core.lastRoundUsage?.prompt ?? 0;
      core.lastRoundUsage = null;
      return reported;
    },
    commit: (record) => core.commit(record),
    publish: (event) => core.publish(event),
    requestSummary: async (history, instruction, spent) => {
      const request = {
        ...core.requests.build(core.model, core.system, core.tools, []),
        // The history may hold tool calls, which need the definitions on some protocols (R-COMP-2).
        toolChoice: "none" as const,
        messages: [
          ...core.requests.hydrateMessages(history),
          { role: "user" as const, content: [{ type: "text" as const, text: instruction }] },
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
      return result.text.trim();
    },
    ...(outOfTurn
      ? {
          outOfTurn: {
            bill: (usage) => billOutOfTurn(core, usage, outOfTurn),
            onBilled: (line) => core.onBilled?.(line),
          },
        }
      : {}),
  };
}
