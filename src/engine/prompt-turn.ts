// A prompt command's turn (SPEC §4): through UserPromptSubmit (hook-prompt.ts), then the turn
// loop, on the model the prompt names when it names one (a custom command's `model:`, R-WF-2) —
// the session's own model is back for the turn after it, as the `config` records say.
import type { SessionCore } from "./core.js";
import type { SessionCommand } from "./door/commands.js";
import type { TurnOutcome } from "./door/outcome.js";
import { hookedPrompt } from "./hook-prompt.js";
import { runTurn } from "./turn/turn.js";

export type PromptCommand = Extract<SessionCommand, { type: "prompt" }>;

/**
 * Whether a prompt sent while the session is busy is a follow-up (R-TURN-7): a plain one is; one
 * that asks for a turn of its own (JSON lines, R-AUTO-2) or carries turn options waits for its own.
 */
export function isFollowUp(command: PromptCommand): boolean {
  const { ownTurn, compact, output, allow, shell, model } = command;
  return !(ownTurn || compact || output || allow || shell || model);
}

/** What a prompt that never reached a turn (dropped or taken back from the queue) resolves to. */
export function notRunOutcome(core: SessionCore): TurnOutcome {
  return { turn: core.fold.lastTurn, stopReason: "cancelled", finalText: "" };
}

/** Runs one prompt; `turn` wraps the turn loop (the session settles the follow-ups that joined it). */
export async function promptTurn(
  core: SessionCore,
  command: PromptCommand,
  signal: AbortSignal,
  turn: (run: Promise<TurnOutcome>) => Promise<TurnOutcome>,
): Promise<TurnOutcome> {
  const own = core.model;
  const named = command.model !== undefined && command.model.id !== own.id ? command.model : undefined;
  if (named) core.switchModel(named);
  try {
    const input = await hookedPrompt(core, {
      content: command.content,
      compactFirst: command.compact,
      output: command.output,
      allow: command.allow,
      ...{ shell: command.shell === true, signal },
    });
    return "stopReason" in input ? input : await turn(runTurn(core, input, signal));
  } finally {
    if (named) core.switchModel(own);
  }
}
