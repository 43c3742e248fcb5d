// Side questions (`/btw`, SPEC R-SIDE-1..4): one request beside the session, never through its
// command queue, so it runs while a turn runs. It reads the archive (what happened, not the
// compacted model context) and commits, publishes and bills nothing: the question, the answer and
// their usage stay out of the record, the event bus, the ledger and the follow-up queue.
// This file is the room's face and its wiring: planning in `side/plan.ts` (pure), the question
// over ports in `side/ask.ts`, the session's ports in `side/ports.ts`.
import type { SessionCore } from "./core.js";
import { askThrough, type SideOptions, type SideResult } from "./side/ask.js";
import { sidePorts } from "./side/ports.js";

export { type SideEvent, type SideResult, TOOL_CALL_ONLY } from "./side/ask.js";
export { type SideExchange, STILL_RUNNING } from "./side/plan.js";

export function askSide(core: SessionCore, question: string, opts: SideOptions): Promise<SideResult> {
  return askThrough(sidePorts(core), question, opts);
}
