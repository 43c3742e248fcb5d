// Side questions (`/btw`, SPEC R-SIDE-1..4): one request beside the session, never through its
// command queue, so it runs while a turn runs. It reads the archive (what happened, not the
// compacted model context) and commits, publishes and bills nothing: the question, the answer and
// their usage stay out of the record, the event bus, the ledger and the follow-up queue.
// The face of side/: its types, and the question, whose code (planning in `side/plan.ts`, the run
// over ports in `side/ask.ts`, the session's ports in `side/ports.ts`) loads with the first one.
import type { SessionCore } from "./core.js";
import type { SideOptions } from "./side/ask.js";
import type { SideResult } from "./door/side.js";

export type { SideOptions } from "./side/ask.js";

export async function askSide(core: SessionCore, question: string, opts: SideOptions): Promise<SideResult> {
  return (await import("./side/ports.js")).askSessionSide(core, question, opts);
}
