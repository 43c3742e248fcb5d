// The shed stage of R-COMP-2: deterministic and free. Outside the newest rounds, big tool results
// become placeholders, long assistant texts are cut, reasoning is dropped, and long string values
// in tool-call arguments (write_file content, edit texts) are cut inside still-valid JSON, so
// every protocol can still send the call. Every placeholder names turn and round for `recall`.
import type { Entry } from "../../record/fold.js";
import { IMAGE_TOKENS } from "./compaction-estimate.js";
import type { CompactionView, RoundIndex, Where } from "./compaction-view.js";
import { CUT_TEXT_OVER, CUT_TEXT_TO, SHED_TOOL_RESULT_OVER } from "./shrink-policy.js";
import type { Message, ToolCall } from "../../vocab/messages.js";

/** Arguments shorter than this stay whole; in longer ones, string values over STRING_OVER are cut. */
const SHED_ARGUMENTS_OVER = 1000;
const STRING_OVER = 400;
const STRING_TO = 200;

export interface ShedPlan {
  /** seq → replacement text (record field `placeholders`). */
  placeholders: Record<string, string>;
  /** seq of an assistant message → call id → replacement arguments (record field `arguments`). */
  arguments: Record<string, Record<string, string>>;
  /** Estimated tokens saved. */
  saved: number;
}

export const isShed = (text: string) => text.startsWith("[shed by compaction");
const recallHint = (w: Where) => `recall {"turn": ${w.turn}, "round": ${w.round}}`;

export function toolPlaceholder(toolName: string, chars: number, w: Where): string {
  return (
    `[shed by compaction: ${toolName} result from turn ${w.turn} round ${w.round}, ${chars} chars; ` +
    `re-run the tool, or call ${recallHint(w)} to read it]`
  );
}

/** A long assistant text cut to its head, or undefined when it is short enough. */
export function cutReply(text: string, w: Where): string | undefined {
  if (text.length <= CUT_TEXT_OVER) return undefined;
  return (
    `${text.slice(0, CUT_TEXT_TO)}\n[shed by compaction: ${text.length - CUT_TEXT_TO} more chars of this reply ` +
    `from turn ${w.turn} round ${w.round}; ${recallHint(w)} reads them]`
  );
}

/**
 * A call's arguments with long string values cut to their head and a note, still valid JSON of
 * the same shape; undefined when nothing would get shorter. Arguments that are not a JSON object
 * (the call failed on them) become an object holding only the note, as a protocol needs an object.
 */
export function shrinkArguments(call: ToolCall, w: Where): string | undefined {
  const raw = call.arguments;
  if (raw.length <= SHED_ARGUMENTS_OVER) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = undefined;
  }
  let out: string;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    out = JSON.stringify({
      shed_by_compaction: `${raw.length} chars of ${call.name} arguments from turn ${w.turn} round ${w.round}; ${recallHint(w)} reads the call in full`,
    });
  } else {
    const cutString = (s: string, key: string) =>
      s.length <= STRING_OVER || isShed(s.slice(STRING_TO + 2))
        ? s
        : `${s.slice(0, STRING_TO)}… [shed by compaction: ${s.length - STRING_TO} more chars of this ${call.name} ${key} ` +
          `from turn ${w.turn} round ${w.round}; ${recallHint(w)} reads the call in full]`;
    const walk = (v: unknown, key: string): unknown => {
      if (typeof v === "string") return cutString(v, key);
      if (Array.isArray(v)) return v.map((x) => walk(x, key));
      if (v !== null && typeof v === "object")
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, k)]));
      return v;
    };
    out = JSON.stringify(walk(value, "arguments"));
  }
  return out.length < raw.length ? out : undefined;
}

function textOf(m: Message): string {
  if (m.role === "assistant") return m.text;
  return m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
}

/** Index of the first entry of the newest `keepRounds` rounds (each starts at an assistant message). */
export function recentRoundsStart(entries: readonly Readonly<Entry>[], keepRounds: number): number {
  let kept = 0;
  let start = entries.length;
  for (let i = entries.length - 1; i >= 0 && kept < keepRounds; i--) {
    start = i;
    if (entries[i].msg.role === "assistant") kept++;
  }
  return start;
}

/**
 * Placeholders for the shed stage (and the tokens they save), or undefined when nothing old is
 * worth shedding. Old tool results over `resultsOver` chars are shed (any longer than its
 * placeholder when 0: the pass before a recent result may be cut, §7: old results go first).
 */
export function planShed(
  view: CompactionView,
  keepRounds: number,
  resultsOver = SHED_TOOL_RESULT_OVER,
): ShedPlan | undefined {
  const { entries, rounds } = view;
  const tailStart = recentRoundsStart(entries, keepRounds);
  const plan: ShedPlan = { placeholders: {}, arguments: {}, saved: 0 };
  let savedChars = 0;
  for (const entry of entries.slice(0, tailStart)) {
    const m = entry.msg;
    if (m.role === "tool") {
      const text = textOf(m);
      if (isShed(text)) continue;
      const size = text.length + m.content.filter((p) => p.type === "image").length * IMAGE_TOKENS * 4;
      if (size <= resultsOver) continue;
      const where = rounds.bySeq.get(entry.seq) ?? { turn: entry.turn, round: 0 };
      const original = rounds.resultChars.get(entry.seq) ?? text.length;
      const placeholder = toolPlaceholder(m.toolName, original, where);
      if (placeholder.length >= size) continue;
      plan.placeholders[entry.seq] = placeholder;
      savedChars += size - placeholder.length;
    } else if (m.role === "assistant") {
      const where = rounds.bySeq.get(entry.seq) ?? { turn: entry.turn, round: 0 };
      let saved = m.reasoning.length;
      const cut = cutReply(m.text, where);
      if (cut !== undefined) saved += m.text.length - cut.length;
      const args: Record<string, string> = {};
      for (const call of m.toolCalls) {
        const shrunk = shrinkArguments(call, where);
        if (shrunk === undefined) continue;
        args[call.id] = shrunk;
        saved += call.arguments.length - shrunk.length;
      }
      // Dropping reasoning alone is worth a record only when there is a lot of it.
      if (cut === undefined && Object.keys(args).length === 0 && m.reasoning.length <= CUT_TEXT_OVER)
        continue;
      plan.placeholders[entry.seq] = cut ?? m.text;
      if (Object.keys(args).length > 0) plan.arguments[entry.seq] = args;
      savedChars += saved;
    }
  }
  plan.saved = Math.floor(savedChars / 4);
  return Object.keys(plan.placeholders).length > 0 ? plan : undefined;
}

/**
 * The same shedding on a copy of context entries, in memory only, for a summary request that must
 * fit the window: every big tool result, long text and long argument, whatever its age.
 */
export function shedCopy(entries: readonly Readonly<Entry>[], rounds: RoundIndex): Message[] {
  return entries.map((entry) => {
    const m = entry.msg;
    const fallback = { turn: entry.turn, round: 0 };
    if (m.role === "tool") {
      const text = textOf(m);
      if (isShed(text) || (text.length <= SHED_TOOL_RESULT_OVER && m.content.every((p) => p.type === "text")))
        return m;
      const where = rounds.bySeq.get(entry.seq) ?? fallback;
      return {
        ...m,
        content: [
          {
            type: "text",
            text: toolPlaceholder(m.toolName, rounds.resultChars.get(entry.seq) ?? text.length, where),
          },
        ],
      };
    }
    if (m.role === "assistant") {
      const where = rounds.bySeq.get(entry.seq) ?? fallback;
      return {
        role: "assistant",
        text: cutReply(m.text, where) ?? m.text,
        reasoning: "",
        toolCalls: m.toolCalls.map((c) => ({ ...c, arguments: shrinkArguments(c, where) ?? c.arguments })),
      };
    }
    return {
      ...m,
      content: m.content.map((p) =>
        p.type === "text" && p.text.length > CUT_TEXT_OVER
          ? {
              type: "text" as const,
              text: `${p.text.slice(0, CUT_TEXT_TO)}\n[${p.text.length - CUT_TEXT_TO} more chars left out]`,
            }
          : p.type === "image"
            ? { type: "text" as const, text: `[image ${p.mediaType} left out]` }
            : p,
      ),
    };
  });
}

/** What an over-sized result keeps at least, so the model still sees how it begins. */
const OVERSIZE_KEEP_MIN = 400;

/**
 * The last resort that lets one turn always go on: when the newest round's own results (already
 * delivered: no call of it is still owed, R-COMP-3) do not fit, the biggest are cut to one common
 * head length that frees `need.chars` at least and `need.wantChars` when they hold that much. The note says how many chars were left out and how
 * to page through the round with recall; the newest assistant message and its calls stay whole.
 */
export function planOversize(
  view: CompactionView,
  need: { chars: number; wantChars: number },
): ShedPlan | undefined {
  if (need.chars <= 0 || view.openCalls > 0) return undefined;
  const { entries, rounds } = view;
  const newest = entries.findLastIndex((e) => e.msg.role === "assistant");
  if (newest < 0) return undefined;
  const results = entries
    .slice(newest + 1)
    .flatMap((e) =>
      e.msg.role === "tool" && !isShed(textOf(e.msg)) ? [{ entry: e, text: textOf(e.msg) }] : [],
    );
  const freedAt = (keep: number) => results.reduce((n, r) => n + Math.max(0, r.text.length - keep), 0);
  // Free what is wanted (room to spare) when the results hold that much, else what is needed.
  const most = results.length === 0 ? 0 : freedAt(OVERSIZE_KEEP_MIN);
  if (most < need.chars) return undefined;
  const excessChars = Math.min(most, Math.max(need.chars, need.wantChars));
  // The largest common head length that still frees enough (water-filling, by bisection).
  let lo = OVERSIZE_KEEP_MIN;
  let hi = Math.max(...results.map((r) => r.text.length));
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (freedAt(mid) >= excessChars) lo = mid;
    else hi = mid;
  }
  const plan: ShedPlan = { placeholders: {}, arguments: {}, saved: 0 };
  for (const { entry, text } of results) {
    if (text.length <= lo || entry.msg.role !== "tool") continue;
    const w = rounds.bySeq.get(entry.seq) ?? { turn: entry.turn, round: 0 };
    plan.placeholders[entry.seq] =
      `${text.slice(0, lo)}\n[shed by compaction: ${text.length - lo} more chars of this ${entry.msg.toolName} result ` +
      `left out, more than the context window has room for; ${recallHint(w)} reads this round in pages]`;
    plan.saved += Math.floor((text.length - plan.placeholders[entry.seq].length) / 4);
  }
  return Object.keys(plan.placeholders).length > 0 ? plan : undefined;
}
