// The two pieces of hook wiring every session needs whether or not it has hooks: which hooks it
// has, and the prompt's way through UserPromptSubmit. Light on purpose: the runner (and
// child_process) load with session-hooks.ts only when a hook is configured.
import type { LoadedConfig } from "../config/load.js";
import { type CollectedHooks, collectHooks } from "../hooks/sources.js";
import type { SessionCore } from "./core.js";
import type { TurnOutcome } from "./turn/stop.js";
import type { TurnInput } from "./turn/turn-ports.js";

/**
 * A prompt through UserPromptSubmit (R-HOOK-2): refused with the hook's reason (nothing is
 * recorded, the person sees why), or the turn's input with the hooks' notes — SessionStart's the
 * first time — to be committed beside the prompt.
 */
export async function hookedPrompt(core: SessionCore, input: TurnInput): Promise<TurnInput | TurnOutcome> {
  const points = core.hookPoints;
  if (!points) return input;
  const text = input.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
  const submitted = await points.promptSubmitted(text);
  if (submitted.blocked !== undefined) {
    const error = {
      class: "hook" as const,
      message: `prompt blocked by a UserPromptSubmit hook: ${submitted.blocked}`,
    };
    core.publish({ type: "error", ...error });
    return { turn: core.fold.lastTurn, stopReason: "failed", finalText: "", error };
  }
  const notes = [...(await points.takeStartNotes()), ...submitted.notes];
  return notes.length > 0 ? { ...input, notes: [...(input.notes ?? []), ...notes] } : input;
}

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
