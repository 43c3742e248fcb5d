// The pieces of hook wiring every session needs whether or not it has hooks: which hooks it has,
// the way of a prompt (and of a follow-up joining a running turn) through UserPromptSubmit, and a
// limit prompt announced to Notification hooks. Light on purpose: the runner (and child_process)
// load with hook-points/ only when a hook is configured.
import type { SessionCore } from "./core.js";
import type { TurnOutcome } from "./door/outcome.js";
import type { TurnInput } from "./turn/turn-ports.js";
import type { ContentPart } from "../vocab/messages.js";
import type { OnLimit } from "./turn/budget.js";
import { expandCommandShell } from "./command-shell.js";
import { settleOutsideAttachments } from "./attachment-approval.js";
import { attachResources } from "./mcp-attach.js";

/**
 * A prompt through UserPromptSubmit (R-HOOK-2): refused with the hook's reason (nothing is
 * recorded, the person sees why), or the turn's input with the hooks' notes — SessionStart's the
 * first time — to be committed beside the prompt.
 */
export async function hookedPrompt(
  core: SessionCore,
  prompt: TurnInput & { shell?: boolean; signal: AbortSignal },
): Promise<TurnInput | TurnOutcome> {
  const { shell, signal, ...asked } = prompt;
  // `@path`s outside the workspace ask first (§10); then a custom command's `!`cmd`` run: hooks
  // and the record see the prompt as sent.
  const given = { ...asked, content: await settleOutsideAttachments(core, asked.content) };
  const expanded = shell
    ? { ...given, content: await expandCommandShell(core, given.content, given.allow ?? [], signal) }
    : given;
  // `@<server>:<uri>` mentions join as the resources' text (R-MCP-2).
  const input = { ...expanded, content: await attachResources(core, expanded.content) };
  const points = core.hookPoints;
  if (!points) return input;
  const submitted = await points.promptSubmitted(textOf(input.content), signal);
  if (submitted.blocked !== undefined) return blockedPrompt(core, core.fold.lastTurn, submitted.blocked);
  // A cancel (SIGTERM) does not wait for SessionStart hooks still running (§10): their
  // processes end with the session's.
  const started = await Promise.race([points.takeStartNotes(), whenAborted(signal)]);
  const notes = [...started, ...submitted.notes];
  return notes.length > 0 ? { ...input, notes: [...(input.notes ?? []), ...notes] } : input;
}

/** Resolves with no notes once `signal` aborts. */
function whenAborted(signal: AbortSignal): Promise<string[]> {
  if (signal.aborted) return Promise.resolve([]);
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve([]), { once: true }));
}

/**
 * R-TURN-7 through R-HOOK-2: the oldest queued follow-up joins the running turn `turn` the way a
 * fresh prompt starts one — UserPromptSubmit sees it first; a block keeps it out of the record and
 * the context (its sender gets the refusal), and the hooks' notes follow it.
 */
export async function joinFollowUp(core: SessionCore, turn: number): Promise<void> {
  const joined = core.followUps.join(turn);
  if (!joined || joined.length === 0) return;
  const content = await attachResources(core, await settleOutsideAttachments(core, joined));
  const submitted = await core.hookPoints?.promptSubmitted(textOf(content));
  if (submitted?.blocked !== undefined)
    return core.followUps.refuseJoined(blockedPrompt(core, turn, submitted.blocked));
  core.records.userPrompt(turn, content);
  for (const note of submitted?.notes ?? []) core.records.notice(turn, note);
}

const LIMIT_WORDS = {
  model_calls: "model calls",
  tool_calls: "tool calls",
  duration: "seconds",
  cost: "US dollars",
} as const;

/**
 * The front end's limit prompt (R-BUD-3), announced first to Notification hooks as tern waiting
 * for the person (`notification_type` `limit_prompt`, tern's own: Claude Code has no such prompt).
 */
export function limitAsker(core: SessionCore): OnLimit | undefined {
  const ask = core.hooks.onLimit;
  if (!ask) return undefined;
  return (limit, used, allowed) => {
    core.hookPoints?.notify(
      `tern reached its limit of ${allowed} ${LIMIT_WORDS[limit]} for this turn and waits for your answer`,
      "limit_prompt",
    );
    return ask(limit, used, allowed);
  };
}

const textOf = (content: ContentPart[]) =>
  content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");

function blockedPrompt(core: SessionCore, turn: number, reason: string): TurnOutcome {
  const error = { class: "hook" as const, message: `prompt blocked by a UserPromptSubmit hook: ${reason}` };
  core.publish({ type: "error", ...error });
  return { turn, stopReason: "failed", finalText: "", error };
}
