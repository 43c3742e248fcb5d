// A session's hooks as its loaded config gives them: tern's own `hooks` and, with `compat.claude`,
// Claude Code's settings files. The opener attaches them; `tern hooks` and `tern config check` list them.
import type { LoadedConfig } from "../config/load.js";
import { type CollectedHooks, collectHooks } from "./sources.js";

/** A session's hooks from its loaded config (and, with `compat.claude`, Claude Code's settings files). */
export function configuredHooks(loaded: LoadedConfig, cwd: string, env: NodeJS.ProcessEnv): CollectedHooks {
  return collectHooks({
    config: loaded.config,
    sources: loaded.sources,
    cwd,
    env,
    workspaceTrusted: loaded.workspaceTrusted === true,
    claude: loaded.config.compat?.claude !== false,
  });
}
