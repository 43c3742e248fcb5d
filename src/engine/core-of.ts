// The engine state behind a session, for engine tests only; front ends must not use it (the
// architecture test keeps them off `coreOf`).
import type { SessionCore } from "./core.js";
import { Session } from "./session.js";

export function coreOf(session: Session): SessionCore {
  return Session.internals(session);
}
