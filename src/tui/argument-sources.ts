// Where Tab's argument completion (argument-completion.ts) reads its choices from, in the running
// UI: the session's config and model, and the workspace's sessions.
import { sessionsOf } from "../engine/session-queries.js";
import type { ArgumentSources } from "./argument-completion.js";
import type { TuiController } from "./controller.js";
import type { TuiDeps } from "./controller-types.js";

export function argumentSourcesOf(ctl: TuiController, deps: TuiDeps): ArgumentSources {
  return {
    config: () => ctl.config,
    currentModel: () => ctl.session.status().model.id,
    sessionIds: () => sessionsOf(deps.home, deps.cwd).map((s) => s.id),
  };
}
