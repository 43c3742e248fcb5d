// The reading door of R-COMP-7: archived content of an earlier turn, or of one round of the
// current turn, rendered as text for the `recall` tool, one page at a time. The unclosed item
// (the newest round of the open turn) is refused, naming what is readable.
import type { RecordFold } from "../../record/fold.js";
import type { RecordContentPart, RecordLine } from "../../record/types.js";

function partsText(parts: RecordContentPart[]): string {
  return parts.map((p) => (p.type === "text" ? p.text : `[image ${p.mediaType}]`)).join("\n");
}

/** Lines of one turn, grouped by round: round 0 holds what precedes the first assistant message. */
function turnRounds(archive: readonly RecordLine[], turn: number): Map<number, RecordLine[]> {
  const rounds = new Map<number, RecordLine[]>();
  let round = 0;
  let cleared = false;
  for (const line of archive) {
    if (line.type === "cleared") {
      cleared = true;
      rounds.clear();
      round = 0;
      continue;
    }
    if (!("turn" in line) || line.turn !== turn) continue;
    cleared = false;
    if (line.type === "assistant_message") round = line.round;
    const list = rounds.get(round) ?? [];
    list.push(line);
    rounds.set(round, list);
  }
  return cleared ? new Map() : rounds;
}

function render(line: RecordLine): string | undefined {
  switch (line.type) {
    case "user_prompt":
      return `user: ${partsText(line.content)}`;
    case "notice":
      return `notice: ${line.text}`;
    case "assistant_message": {
      const calls = line.toolCalls.map((c) => `tool call ${c.id} ${c.name} ${c.arguments}`);
      return [`assistant (round ${line.round}): ${line.text}`, ...calls].join("\n");
    }
    case "tool_result":
      return `tool result ${line.id} ${line.name} [${line.outcome}]:\n${partsText(line.content)}`;
    default:
      return undefined;
  }
}

export function recallText(fold: RecordFold, turn: number, round?: number): string {
  const rounds = turnRounds(fold.archive, turn);
  if (rounds.size === 0)
    throw new Error(`turn ${turn} is not in this session's archive (turns 1..${fold.lastTurn})`);
  const open = fold.openTurn?.turn === turn;
  const newestRound = Math.max(...rounds.keys());
  if (open && (round === undefined || round >= newestRound)) {
    const readable = [...rounds.keys()].filter((r) => r > 0 && r < newestRound);
    throw new Error(
      `turn ${turn} round ${round ?? newestRound} is still being written and is already in your context; ` +
        (readable.length > 0
          ? `readable rounds of this turn: ${readable.join(", ")}`
          : "no earlier round of this turn is readable"),
    );
  }
  const selected = round === undefined ? [...rounds.values()].flat() : [...(rounds.get(round) ?? [])];
  if (selected.length === 0) throw new Error(`turn ${turn} has no round ${round} (rounds 1..${newestRound})`);
  return selected
    .map(render)
    .filter((t): t is string => t !== undefined)
    .join("\n\n");
}

export interface RecallRequest {
  turn: number;
  round?: number;
  /** Character offset into the rendered text, as the previous page named it. */
  offset?: number;
}

/**
 * One page of `recallText`: at most `pageChars` characters from `offset`, cut at a line end when
 * one is near, ending with the offset to ask for next. A text that fits one page comes whole.
 */
export function recallPage(fold: RecordFold, req: RecallRequest, pageChars: number): string {
  const text = recallText(fold, req.turn, req.round);
  const offset = req.offset ?? 0;
  if (offset === 0 && text.length <= pageChars) return text;
  if (offset >= text.length)
    throw new Error(
      `offset ${offset} is past the end: this text has ${text.length} chars (offsets 0..${text.length - 1})`,
    );
  const call = (at: number) =>
    `recall {"turn": ${req.turn}${req.round === undefined ? "" : `, "round": ${req.round}`}, "offset": ${at}}`;
  const footer = (end: number) =>
    end < text.length
      ? `[page: chars ${offset}–${end} of ${text.length}; ${call(end)} reads the next page]`
      : `[page: chars ${offset}–${end} of ${text.length}; this is the end]`;
  // Room for the longest footer and its newline inside the page: a page never exceeds what was
  // granted, so an output cap of that size never cuts it (the next page starts where it ended).
  const footerRoom = footer(text.length - 1).length + 1;
  let end = Math.min(text.length, offset + Math.max(1, pageChars - footerRoom));
  if (end < text.length) {
    const newline = text.lastIndexOf("\n", end);
    if (newline > offset + (end - offset) * 0.8) end = newline + 1;
  }
  const page = text.slice(offset, end);
  return `${page}${page.endsWith("\n") ? "" : "\n"}${footer(end)}`;
}
