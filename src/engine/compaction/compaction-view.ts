// What compaction plans from: a plain snapshot of the model context and the limits, so every
// planning function (shed, ranges, summary pieces) is a pure function of it, testable without a
// session or a provider. `compaction-ports.ts` takes the snapshot of a live session.
import type { Entry } from "../../record/fold.js";
import type { RecordLine } from "../../record/types.js";

export interface Where {
  turn: number;
  round: number;
}

export interface RoundIndex {
  /**
   * Turn and round of every assistant message and of every tool result (its call's), by seq: a
   * provider that reuses call ids across rounds (`call_0` each time) still gets each placeholder
   * its own recall hint.
   */
  bySeq: Map<number, Where>;
  /** Turn and round of every tool call, by call id (the newest round using the id). */
  byCall: Map<string, Where>;
  /** Text length of every tool result as the tool returned it, by record seq. */
  resultChars: Map<number, number>;
}

export interface CompactionView {
  /** The model context, with each message's seq and turn. */
  entries: readonly Readonly<Entry>[];
  /** The turn still running, if any. */
  openTurn: number | undefined;
  /** Tool calls committed and still owed a result (the unclosed item of R-COMP-3). */
  openCalls: number;
  /** Where each archived message stands, for placeholders that name turn and round. */
  rounds: RoundIndex;
  /** Estimated tokens of the system prompt and tool definitions: in every request. */
  fixedTokens: number;
  /** Estimated tokens of the whole next request (fixed part included). */
  contextTokens: number;
  /** The compaction threshold in tokens (`autoCompactThreshold` × window). */
  limit: number;
  /** Tokens one request may take: the limit, or the whole window when auto-compaction is off. */
  requestLimit: number;
}

/** Where each archived message stands, so placeholders name turn and round for `recall`. */
export function roundIndexOf(archive: readonly RecordLine[]): RoundIndex {
  const index: RoundIndex = { bySeq: new Map(), byCall: new Map(), resultChars: new Map() };
  for (const line of archive) {
    if (line.type === "tool_result") {
      index.resultChars.set(
        line.seq,
        line.content.reduce((n, p) => n + (p.type === "text" ? p.text.length : 0), 0),
      );
      // The call this result answers is the latest one of that id before it.
      const w = index.byCall.get(line.id);
      if (w) index.bySeq.set(line.seq, w);
    }
    if (line.type !== "assistant_message") continue;
    const w = { turn: line.turn, round: line.round };
    index.bySeq.set(line.seq, w);
    for (const call of line.toolCalls) index.byCall.set(call.id, w);
  }
  return index;
}
