// Where Tab's argument completion (argument-completion.ts) reads its choices from, in the running
// UI: the session's config and model, and the workspace's sessions.
import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { sessionsOf } from "../workspace/session-queries.js";
import type { ArgumentSources } from "./argument-completion.js";
import type { TuiController } from "./controller.js";
import type { TuiDeps } from "./controller-types.js";

export function argumentSourcesOf(ctl: TuiController, deps: TuiDeps): ArgumentSources {
  return {
    config: () => ctl.config,
    currentModel: () => ctl.session.status().model.id,
    sessionIds: () => sessionsOf(deps.home, deps.cwd).map((s) => s.id),
    paths: (typed) => pathsLike(deps.cwd, typed),
  };
}

/** Entries of the folder `typed` names (relative to the workspace) whose names start with its last part. */
function pathsLike(cwd: string, typed: string): string[] {
  const cut = typed.lastIndexOf("/") + 1;
  const dir = typed.slice(0, cut);
  const start = typed.slice(cut);
  try {
    return readdirSync(resolve(cwd, dir || "."), { withFileTypes: true })
      .filter((e) => e.name.startsWith(start) && (start.startsWith(".") || !e.name.startsWith(".")))
      .map((e) => `${dir}${e.name}${e.isDirectory() ? "/" : ""}`)
      .sort()
      .slice(0, 200);
  } catch {
    return [];
  }
}
