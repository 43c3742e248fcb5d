// A custom command's `model` front matter (R-WF-2): it rides on the command's prompt, so the turn
// it runs uses that model and the session's own model is back after it. tern names models
// `<provider>/<model>`; Claude Code's files name a bare Claude model (`claude-haiku-4-5`), which
// means Anthropic's.
import { ConfigError } from "../config/errors.js";
import { resolveModel } from "../config/resolve.js";
import type { Config, ResolvedModel } from "../config/types.js";
import type { Session } from "../engine/session.js";

/** The tern model id a command's `model` names, or undefined when it names none tern can use. */
export function commandModelId(model: string): string | undefined {
  if (model.includes("/")) return model;
  if (/^claude-[\w.-]+$/.test(model)) return `anthropic/${model}`;
  return undefined; // `haiku`, `inherit`: Claude Code's aliases, no model of tern's
}

/**
 * The model a command's prompt names for its turn (`{type: "prompt", model}`): the engine runs
 * that turn on it and the next on the session's own. Undefined when it names none, names the
 * session's own, or names one tern cannot use (then `notice` says why and the session's runs it).
 */
export function commandModel(
  session: Session,
  config: Config,
  baseUrl: string | undefined,
  model: string | undefined,
  notice: (text: string) => void,
): ResolvedModel | undefined {
  const id = model ? commandModelId(model) : undefined;
  if (!model || id === session.status().model.id) return undefined;
  if (!id) {
    notice(`model ${JSON.stringify(model)} of this command ignored: tern names models <provider>/<model>`);
    return undefined;
  }
  try {
    return resolveModel({ ...config, model: id }, process.env, { baseUrl }).model;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    notice(`model ${id} of this command not used: ${err.message}`);
    return undefined;
  }
}
