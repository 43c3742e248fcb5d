// Side questions' planning (R-SIDE-1, R-SIDE-2), pure functions of the archive, the side
// history and the limit: which messages a question is asked with, and how a copy that does not
// fit the window is compacted in memory. No session, no request: `ask.ts` runs them over ports.
import { RecordFold } from "../../record/fold.js";
import type { RecordLine } from "../../record/types.js";
import type { Message } from "../../vocab/messages.js";
import type { SideExchange } from "../door/side.js";
import { estimateTokens } from "../compaction/compaction-estimate.js";
import { CUT_TEXT_OVER, CUT_TEXT_TO, SHED_TOOL_RESULT_OVER } from "../compaction/shrink-policy.js";

/** R-SIDE-1: the newest side exchanges of this process that go with a question. */
export const SIDE_HISTORY = 20;
export const STILL_RUNNING = "still running: this call has not finished yet, so its result is not known";

export interface SideEntry {
  turn: number;
  msg: Message;
}

/** The question after the newest side exchanges, as the messages that follow the archive. */
export function sideTail(history: readonly SideExchange[], question: string): Message[] {
  const tail: Message[] = [];
  for (const ex of history.slice(-SIDE_HISTORY)) {
    tail.push({ role: "user", content: [{ type: "text", text: ex.question }] });
    tail.push({ role: "assistant", text: ex.answer, reasoning: "", toolCalls: [] });
  }
  tail.push({ role: "user", content: [{ type: "text", text: question }] });
  return tail;
}

/**
 * The archive as messages: the committed lines replayed without their compaction records, so
 * shed placeholders and summaries do not apply, while `cleared` and `rewound` still withdraw what
 * the user withdrew. Only committed lines exist here, so text still streaming is not included.
 * Calls without a result get one saying they are still running, in this copy only.
 */
export function archiveEntries(lines: readonly RecordLine[]): SideEntry[] {
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
export function fitCopy(
  entries: SideEntry[],
  tail: Message[],
  system: string,
  limit: number,
): Message[] | string {
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
