// `/thinking [off|low|medium|high]` for both front ends (R-PROV-10): the level goes into the
// session's config (so a later /model keeps it) and the current model is resolved again with it.
import { ConfigError } from "../config/errors.js";
import { parseThinking } from "../config/flags.js";
import { resolveModel } from "../config/resolve.js";
import type { Config, ResolvedModel } from "../config/types.js";
import type { Session } from "../engine/session.js";

export const THINKING_HELP = "/thinking [level]   reasoning level: off, low, medium or high";

/** Returns the line to show, and the model now in force when the level changed. */
export async function thinkingCommand(
  arg: string | undefined,
  session: Session,
  config: Config,
  baseUrl: string | undefined,
): Promise<{ message: string; model?: ResolvedModel; error?: boolean }> {
  const current = session.status().model;
  if (arg === undefined) {
    return { message: `thinking: ${current.thinking} (usage: /thinking off|low|medium|high)` };
  }
  try {
    const level = parseThinking(arg, "/thinking");
    const { model } = resolveModel({ ...config, thinking: level, model: current.id }, process.env, {
      baseUrl,
    });
    config.thinking = level;
    await session.send({ type: "set_model", model });
    return { message: `thinking: ${level}`, model };
  } catch (err) {
    if (err instanceof ConfigError) return { message: err.message, error: true };
    throw err;
  }
}
