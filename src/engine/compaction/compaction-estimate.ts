// The chars/4 estimate of R-COMP-6 and the budget arithmetic built on it: when to compact, and
// how much room a recalled page may take. The estimate decides and warns; it never reaches usage.
import type { SessionCore } from "../core.js";
import { requestLimitFor } from "./shrink-policy.js";
import { reusablePrefix, type PrefixMemo } from "../../vocab/grown-prefix.js";
import type { Message } from "../../vocab/messages.js";

export const IMAGE_TOKENS = 1500;
/** What a summary is assumed to cost when planning around one. */
export const SUMMARY_TOKENS_GUESS = 800;

/**
 * Characters every message and every tool call carries on the wire besides its text (the JSON of
 * role, type, ids and names: 35–100 per message on the three protocols, measured): a history of
 * many small messages is otherwise counted far below what is sent, and a summary request
 * "under the window" by the estimate arrived at several times the window (a 5,000-turn history
 * sent 822 KB in one request).
 */
const MESSAGE_FRAMING_CHARS = 40;
const CALL_FRAMING_CHARS = 64;

interface Size {
  chars: number;
  images: number;
}

function measure(messages: readonly Message[], into: Size): Size {
  for (const m of messages) {
    into.chars += MESSAGE_FRAMING_CHARS;
    if (m.role === "assistant") {
      into.chars += m.text.length + m.reasoning.length;
      for (const c of m.toolCalls)
        into.chars += CALL_FRAMING_CHARS + c.id.length + c.name.length + c.arguments.length;
      continue;
    }
    if (m.role === "tool") into.chars += m.toolCallId.length;
    for (const p of m.content) {
      if (p.type === "text") into.chars += p.text.length;
      else into.images++;
    }
  }
  return into;
}

const tokensOf = (size: Size) => Math.ceil(size.chars / 4) + size.images * IMAGE_TOKENS;

/** The chars/4 estimate (R-COMP-6): used to decide and warn, never reported as usage. */
export function estimateTokens(system: string, toolsJson: string, messages: readonly Message[]): number {
  return tokensOf(measure(messages, { chars: system.length + toolsJson.length, images: 0 }));
}

/**
 * The estimate of a messages array is kept per array and extended as it grows (see grown-prefix.ts),
 * so checking the threshold every round stays O(new messages). It keeps characters, not tokens,
 * so an extended estimate rounds exactly as one computed whole.
 */
const estimates = new WeakMap<readonly Message[], PrefixMemo<Message> & Size>();
const toolsChars = new WeakMap<readonly object[], number>();

/** System prompt plus tool definitions: what every request carries whatever compaction does. */
export function fixedEstimate(core: SessionCore): number {
  let tools = toolsChars.get(core.tools);
  if (tools === undefined) {
    tools = JSON.stringify(core.tools).length;
    toolsChars.set(core.tools, tools);
  }
  return Math.ceil((core.system.length + tools) / 4);
}

export function contextEstimate(core: SessionCore): number {
  const messages = core.fold.messages;
  const known = estimates.get(messages);
  const from = reusablePrefix(messages, known);
  const start = from > 0 ? { chars: known!.chars, images: known!.images } : { chars: 0, images: 0 };
  const size = measure(messages.slice(from), start);
  if (messages.length > 0)
    estimates.set(messages, { count: messages.length, last: messages[messages.length - 1], ...size });
  return tokensOf(size) + fixedEstimate(core);
}

export function compactionLimit(core: SessionCore): number {
  return core.settings.autoCompactThreshold * core.model.info.contextWindow;
}

/** The budget requests are planned against: the compaction limit, or the whole window when auto-compaction is off. */
export function requestLimit(core: SessionCore): number {
  return requestLimitFor(core.settings.autoCompactThreshold, core.model);
}

/** R-COMP-1: over the threshold by the estimate or by the last round's reported prompt tokens. */
export function overBudget(core: SessionCore): boolean {
  if (core.settings.autoCompactThreshold <= 0) return false;
  const limit = compactionLimit(core);
  return contextEstimate(core) > limit || (core.lastRoundUsage?.prompt ?? 0) > limit;
}

/**
 * What no compaction can remove from the next request: system prompt and tools, the open turn's
 * prompt, a summary, and the newest round (its assistant message and the results so far).
 */
export function irreducibleEstimate(core: SessionCore): number {
  const entries = core.fold.contextEntries;
  const open = core.fold.openTurn?.turn;
  const kept: Message[] = [];
  const prompt = entries.find((e) => e.turn === open && e.msg.role === "user");
  if (prompt) kept.push(prompt.msg);
  const newest = entries.findLastIndex((e) => e.msg.role === "assistant");
  if (newest >= 0) for (const e of entries.slice(newest)) kept.push(e.msg);
  return fixedEstimate(core) + estimateTokens("", "", kept) + SUMMARY_TOKENS_GUESS;
}

/** Smallest page recall hands out, so reading always makes progress. */
const MIN_PAGE_TOKENS = 256;

/**
 * R-COMP-7: tokens one recalled page may take: at most a quarter of the window, and no more than
 * the room compaction can make beside what it cannot remove (less what this batch already took).
 */
export function recallPageTokens(core: SessionCore, alreadyTaken: number): number {
  const quarter = Math.floor(core.model.info.contextWindow / 4);
  const room = Math.floor(requestLimit(core) - irreducibleEstimate(core) - alreadyTaken);
  return Math.max(MIN_PAGE_TOKENS, Math.min(quarter, room));
}

/**
 * Characters of one recalled page: the tokens above, and never more than `toolOutputLimit`, so
 * the output cap never cuts a page in the middle and the next page starts where this one ended.
 */
export function recallPageChars(core: SessionCore, alreadyTaken: number): number {
  return Math.min(recallPageTokens(core, alreadyTaken) * 4, core.settings.toolOutputLimit);
}
