// Whether a record may be committed next, given what the fold holds: the phase admits its type
// and it names the newest turn, an open call, a range inside the record. Every commit and every
// load runs this same check, so a line written is a line that loads.
import type { OpenCall } from "./fold-parts.js";
import { admissible } from "./phases.js";
import type { NewRecord, Phase, RecordLine } from "./types.js";

/** What the check needs to know about the fold. */
export interface FoldState {
  phase: Phase;
  empty: boolean;
  lastTurn: number;
  lastSeq: number;
  pending: ReadonlyMap<string, OpenCall>;
  /** An undo stands that a `redo` may take back. */
  canRedo: boolean;
}

/** Why this record may not be committed now, or null when it is admissible. */
export function checkRecord(rec: NewRecord | RecordLine, at: FoldState): string | null {
  if (!admissible(rec.type, at.phase)) return `${rec.type} is not admissible in phase ${at.phase}`;
  switch (rec.type) {
    case "session_start":
      return !at.empty ? "session_start must be the first record" : null;
    case "user_prompt":
      return rec.turn < at.lastTurn || rec.turn < 1
        ? `user_prompt turn ${rec.turn} goes back (newest turn is ${at.lastTurn})`
        : null;
    case "assistant_message":
    case "notice":
      return rec.turn !== at.lastTurn && !(rec.type === "notice" && rec.turn === 0)
        ? `${rec.type} names turn ${rec.turn}, but the newest turn is ${at.lastTurn}`
        : null;
    case "turn_end":
      return rec.turn !== at.lastTurn ? `turn_end names turn ${rec.turn}, newest is ${at.lastTurn}` : null;
    case "tool_start": {
      const call = at.pending.get(rec.id);
      if (!call) return `tool_start for ${rec.id}, which is not an open call`;
      return call.started ? `tool_start for ${rec.id} twice` : null;
    }
    case "tool_result":
      return at.pending.has(rec.id) ? null : `tool_result for ${rec.id}, which is not an open call`;
    case "compaction":
      return rec.fromSeq <= rec.toSeq && rec.toSeq <= at.lastSeq
        ? null
        : `compaction range ${rec.fromSeq}..${rec.toSeq} is not within the record (last seq ${at.lastSeq})`;
    case "redo":
      return at.canRedo ? null : "redo without an undo to take back";
    default:
      return null;
  }
}
