// A custom command's `model` front matter (R-WF-2): the turn it runs uses that model, and the
// session goes back to its own model after it. tern names models `<provider>/<model>`; Claude
// Code's files name a bare Claude model (`claude-haiku-4-5`), which means Anthropic's.
import { ConfigError } from "../config/errors.js";
import { resolveModel } from "../config/resolve.js";
import type { Config } from "../config/types.js";
import type { Session } from "../engine/session.js";

/** The tern model id a command's `model` names, or undefined when it names none tern can use. */
export function commandModelId(model: string): string | undefined {
  if (model.includes("/")) return model;
  if (/^claude-[\w.-]+$/.test(model)) return `anthropic/${model}`;
  return undefined; // `haiku`, `inherit`: Claude Code's aliases, no model of tern's
}

/**
 * Runs `fn` with the command's model, then switches back. Returns a notice when the model was
 * not used (a name tern cannot resolve: the turn then runs with the session's model).
 */
export async function withCommandModel<T>(
  session: Session,
  config: Config,
  baseUrl: string | undefined,
  model: string | undefined,
  fn: () => Promise<T>,
  notice: (text: string) => void,
): Promise<T> {
  const id = model ? commandModelId(model) : undefined;
  const own = session.status().model;
  if (!model || id === own.id) return fn();
  if (!id) {
    notice(`model ${JSON.stringify(model)} of this command ignored: tern names models <provider>/<model>`);
    return fn();
  }
  let resolved: ReturnType<typeof resolveModel>["model"];
  try {
    resolved = resolveModel({ ...config, model: id }, process.env, { baseUrl }).model;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    notice(`model ${id} of this command not used: ${err.message}`);
    return fn();
  }
  await session.send({ type: "set_model", model: resolved });
  try {
    return await fn();
  } finally {
    await session.send({ type: "set_model", model: own });
  }
}
