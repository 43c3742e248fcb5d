// Side questions (`/btw`, SPEC R-SIDE-1..4): one request beside the session, never through its
// command queue, so it runs while a turn runs. It reads the archive (what happened, not the
// compacted model context) and commits, publishes and bills nothing: the question, the answer and
// their usage stay out of the record, the event bus, the ledger and the follow-up queue.
import { ProviderError } from "../provider/errors.js";
import type { NormalizedRequest } from "../provider/types.js";
import { RecordFold } from "../record/fold.js";
import { estimateTokens } from "./compaction/compaction-estimate.js";
import type { SessionCore } from "./core.js";
import { callModel } from "./turn/model-call.js";
import {
  CUT_TEXT_OVER,
  CUT_TEXT_TO,
  requestLimitFor,
  SHED_TOOL_RESULT_OVER,
} from "./compaction/shrink-policy.js";
import { computeCost } from "../vocab/cost.js";
import type { Message } from "../vocab/messages.js";
import { addUsage, emptyUsage, type Usage } from "../vocab/usage.js";

export interface SideExchange {
  question: string;
  answer: string;
}
/** Deltas of the answer as it streams; after a retried attempt the final `SideResult.text` is what counts. */
export type SideEvent = { type: "reasoning_delta" | "text_delta"; text: string };
export interface SideResult {
  ok: boolean;
  text: string;
  error?: string;
  /**
   * USD the question's requests cost (every attempt that reported usage); null = unknown price.
   * Never in the ledger (R-SIDE-4); a status line may show it apart.
   */
  cost: number | null;
}

/** R-SIDE-1: the newest side exchanges of this process that go with a question. */
const SIDE_HISTORY = 20;
export const STILL_RUNNING = "still running: this call has not finished yet, so its result is not known";
export const TOOL_CALL_ONLY = "the model answered with a tool call instead of text; ask again";

interface SideEntry {
  turn: number;
  msg: Message;
}

export async function askSide(
  core: SessionCore,
  question: string,
  opts: { history: SideExchange[]; signal: AbortSignal; onEvent(event: SideEvent): void },
): Promise<SideResult> {
  // Taken now: a model switch queued meanwhile does not change the request being built.
  const model = core.model;
  const adapter = core.adapter;
  if (opts.signal.aborted) return { ok: false, text: "", error: "cancelled", cost: 0 };

  const tail: Message[] = [];
  for (const ex of opts.history.slice(-SIDE_HISTORY)) {
    tail.push({ role: "user", content: [{ type: "text", text: ex.question }] });
    tail.push({ role: "assistant", text: ex.answer, reasoning: "", toolCalls: [] });
  }
  tail.push({ role: "user", content: [{ type: "text", text: question }] });

  const limit = requestLimitFor(core.settings.autoCompactThreshold, model);
  let fitted: Message[] | string;
  try {
    fitted = fitCopy(archiveEntries(core), tail, core.system, limit);
  } catch (err) {
    // A front end awaits a result, never a rejection.
    fitted = `internal: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (typeof fitted === "string") return { ok: false, text: "", error: fitted, cost: 0 };

  const request: NormalizedRequest = {
    model: model.name,
    system: core.system,
    tools: [],
    messages: core.requests.hydrateMessages(fitted),
    maxOutputTokens: model.info.maxOutputTokens,
    images: model.info.images,
    // No hosted tools either: a side question only answers from what the session holds.
    ...(model.thinking !== "off" ? { thinking: model.thinking } : {}),
    cacheKey: core.id,
  };
  let usage: Usage | null = null;
  const cost = () => (usage ? computeCost(usage, model.info.pricing) : 0);
  try {
    const result = await callModel(core.settings, adapter, request, {
      signal: opts.signal,
      onEvent: (event) => {
        if (event.type === "text_delta" || event.type === "reasoning_delta")
          opts.onEvent({ type: event.type, text: event.text });
      },
      onAttemptUsage: (u) => {
        usage = addUsage(usage ?? emptyUsage(), u);
      },
    });
    // R-SIDE-3: tool calls are never executed; text that came with them is the answer.
    if (result.text.trim() === "") {
      if (result.toolCalls.length > 0) return { ok: false, text: "", error: TOOL_CALL_ONLY, cost: cost() };
      return { ok: false, text: "", error: "the model returned an empty answer; ask again", cost: cost() };
    }
    return { ok: true, text: result.text, cost: cost() };
  } catch (err) {
    if (opts.signal.aborted || (err instanceof ProviderError && err.errorClass === "cancelled"))
      return { ok: false, text: "", error: "cancelled", cost: cost() };
    return { ok: false, text: "", error: err instanceof Error ? err.message : String(err), cost: cost() };
  }
}

/**
 * The archive as messages: the committed lines replayed without their compaction records, so
 * shed placeholders and summaries do not apply, while `cleared` and `rewound` still withdraw what
 * the user withdrew. Only committed lines exist here, so text still streaming is not included.
 * Calls without a result get one saying they are still running, in this copy only.
 */
function archiveEntries(core: SessionCore): SideEntry[] {
  const lines = core.fold.archive;
  let from = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (lines[i].type === "cleared") {
      from = i + 1;
      break;
    }
  }
  const replay = RecordFold.from(lines.slice(from).filter((l) => l.type !== "compaction"));
  const entries: SideEntry[] = replay.contextEntries.map((e) => ({ turn: e.turn, msg: e.msg }));
  for (const call of replay.openCalls) {
    entries.push({
      turn: call.turn,
      msg: {
        role: "tool",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text: STILL_RUNNING }],
        isError: false,
      },
    });
  }
  return entries;
}

/**
 * R-SIDE-2: when the copy does not fit, compact it in memory, cheapest first: old tool results
 * become short placeholders, long texts are cut, then every tool result is shed, then the oldest
 * turns go (the newest turn always stays). Returns the messages, or why they do not fit.
 */
function fitCopy(entries: SideEntry[], tail: Message[], system: string, limit: number): Message[] | string {
  const size = () => estimateTokens(system, "", [...entries.map((e) => e.msg), ...tail]);
  const fits = () => size() <= limit;
  const done = () => [...entries.map((e) => e.msg), ...tail];
  if (fits()) return done();

  const newestAssistant = entries.findLastIndex((e) => e.msg.role === "assistant");
  const shedResults = (before: number) => {
    for (let i = 0; i < before; i++) {
      const m = entries[i].msg;
      if (m.role !== "tool") continue;
      const chars = textLength(m.content);
      const images = m.content.some((p) => p.type === "image");
      if (chars <= SHED_TOOL_RESULT_OVER && !images) continue;
      const text = `[${m.toolName} result left out of this side question to fit the window: ${chars} chars]`;
      entries[i] = { ...entries[i], msg: { ...m, content: [{ type: "text", text }] } };
    }
  };
  shedResults(newestAssistant < 0 ? entries.length : newestAssistant);
  if (fits()) return done();

  for (let i = 0; i < entries.length; i++) {
    const m = entries[i].msg;
    if (m.role === "assistant") {
      const keepThinking = i === newestAssistant;
      entries[i] = {
        ...entries[i],
        msg: {
          role: "assistant",
          text: cut(m.text),
          reasoning: keepThinking ? m.reasoning : "",
          toolCalls: m.toolCalls,
          ...(keepThinking && m.thinkingBlocks ? { thinkingBlocks: m.thinkingBlocks } : {}),
          ...(keepThinking && m.providerItems ? { providerItems: m.providerItems } : {}),
        },
      };
    } else if (m.role === "user") {
      entries[i] = {
        ...entries[i],
        msg: { ...m, content: m.content.map((p) => (p.type === "text" ? { ...p, text: cut(p.text) } : p)) },
      };
    }
  }
  if (fits()) return done();

  shedResults(entries.length);
  if (fits()) return done();

  // Dropping whole turns keeps every call with its result: a turn starts at a user message. The
  // size is summed per message once and reduced as turns go (an upper bound of the estimate), so
  // a history of thousands of turns drops in linear time, not one estimate per dropped turn.
  const each = (m: Message) => estimateTokens("", "", [m]);
  let total =
    estimateTokens(system, "", []) + [...entries.map((e) => e.msg), ...tail].reduce((n, m) => n + each(m), 0);
  const newest = entries.at(-1)?.turn;
  let kept = 0;
  while (total > limit && kept < entries.length && entries[kept].turn !== newest) {
    const oldest = entries[kept].turn;
    for (; kept < entries.length && entries[kept].turn === oldest; kept++) total -= each(entries[kept].msg);
  }
  const dropped = kept > 0;
  entries.splice(0, kept);
  if (dropped && entries[0]?.msg.role === "user") {
    const first = entries[0].msg;
    entries[0] = {
      ...entries[0],
      msg: {
        role: "user",
        content: [{ type: "text", text: "[earlier turns left out to fit the window]\n" }, ...first.content],
      },
    };
  }
  if (fits()) return done();
  return `the side question does not fit the model's window, even after compacting a copy (about ${size()} tokens, limit ${Math.floor(limit)})`;
}

function textLength(content: readonly { type: string; text?: string }[]): number {
  return content.reduce((n, p) => n + (p.type === "text" ? (p.text?.length ?? 0) : 0), 0);
}

function cut(text: string): string {
  if (text.length <= CUT_TEXT_OVER) return text;
  return `${text.slice(0, CUT_TEXT_TO)}\n[${text.length - CUT_TEXT_TO} more chars left out of this side question]`;
}
