// A resumed session's conversation as transcript items (R-UI-17): what the person saw when it
// ran — prompts, answers, each tool call's line with its output tail and duration, compaction
// markers, turn labels — read from the record, plus the status line's figures (context, tokens,
// cost) so a resumed screen never says `0 tokens`. Only the conversation as it stands: turns
// taken back (undo, /rewind) or cleared are not shown. Pure: the controller dispatches it.
import type { CallPresenter, Session, TranscriptLine } from "../engine/session.js";
import { type ChildRecord, childRecords } from "../workspace/session-queries.js";
import { undoHistory } from "../workspace/offline-undo.js";
import { addCost } from "../vocab/cost.js";
import { childWorkOf } from "./child-fold.js";
import { errorLine, turnLabel } from "./status-text.js";
import type { ToolRun } from "./tool-view.js";
import { itemRows } from "./transcript-view.js";
import type { ItemKind } from "./ui-state.js";

export interface ReplayItem {
  kind: ItemKind;
  text: string;
  tool?: ToolRun;
  /** The turn it belongs to (0: before any). */
  turn: number;
}

export interface Replay {
  items: ReplayItem[];
  /** Prompt tokens of the newest request (or what a compaction left): what the context holds. */
  lastPrompt: number;
  /** Tokens of every request so far, as the live status line adds them up. */
  tokens: number;
  /** USD of the turns and `/compact` summaries; null once a price was unknown. */
  cost: number | null;
}

type Part = { type: "text"; text: string } | { type: "image"; mediaType: string; ref: string };

function partsText(parts: readonly Part[]): string {
  return parts.map((p) => (p.type === "text" ? p.text : `[image ${p.mediaType}]`)).join("\n");
}

/** Lines that draw something: a batch still open is drawn before them. */
const DRAWN_AFTER_BATCH = new Set([
  "user_prompt",
  "assistant_message",
  "compaction",
  "notice",
  "turn_end",
  "cleared",
]);

/** A `task` call's child, by call id (its own record), for the call's fold summary. */
export type ChildLookup = (callId: string) => ChildRecord | undefined;

/** `from`: the first line whose items are made (a turn's prompt); the figures count every line. */
export function replayRecord(
  lines: readonly TranscriptLine[],
  present: CallPresenter,
  from = 0,
  children: ChildLookup = () => undefined,
): Replay {
  const out: Replay = { items: [], lastPrompt: 0, tokens: 0, cost: 0 };
  const live = new Set(undoHistory(lines).live);
  const cleared = lines.findLastIndex((l) => l.type === "cleared");
  const calls = new Map<string, ToolRun>();
  const started = new Map<string, number>();
  /** Rounds of each turn that asked for tools (the label's `rounds=N`, R-UI-9). */
  const toolRounds = new Map<number, number>();
  let turn = 0;
  const add = (kind: ItemKind, text: string, tool?: ToolRun) => out.items.push({ kind, text, tool, turn });
  // A batch's results are recorded as they finish but drawn in call order (R-UI-19), as live.
  const batch = { order: [] as string[], done: new Map<string, ToolRun>() };
  const flushBatch = (all: boolean) => {
    while (batch.order.length > 0 && (all || batch.done.has(batch.order[0]))) {
      const run = batch.done.get(batch.order.shift() as string);
      if (run) add("tool", `${run.name} ${run.outcome}`, run);
    }
    if (all) batch.done.clear();
  };
  for (const [i, line] of lines.entries()) {
    // Spending stays spent: costs and tokens count every line, shown or withdrawn.
    if (line.type === "assistant_message" && line.usage)
      out.tokens += line.usage.prompt + line.usage.completion;
    if (line.type === "turn_end") out.cost = addCost(out.cost, line.cost);
    if (line.type === "compaction" && line.bill) out.cost = addCost(out.cost, line.bill.cost);
    if (i < cleared || i < from) continue;
    if ("turn" in line && typeof line.turn === "number" && line.turn > 0 && !live.has(line.turn)) continue;
    if (DRAWN_AFTER_BATCH.has(line.type)) flushBatch(true);
    switch (line.type) {
      case "user_prompt":
        turn = line.turn;
        add("user", `› ${partsText(line.content as Part[])}`);
        break;
      case "assistant_message": {
        if (line.usage) out.lastPrompt = line.usage.prompt;
        if (line.text.trim()) add("assistant", line.text.replace(/^\n+/, "").replace(/\s+$/, ""));
        if (line.toolCalls.length > 0) toolRounds.set(line.turn, (toolRounds.get(line.turn) ?? 0) + 1);
        batch.order = line.toolCalls.map((call) => call.id);
        for (const call of line.toolCalls)
          calls.set(call.id, {
            ...call,
            presentation: present({ name: call.name, arguments: call.arguments }),
          });
        break;
      }
      case "tool_start":
        started.set(line.id, Date.parse(line.ts));
        break;
      case "tool_result": {
        const call = calls.get(line.id) ?? {
          id: line.id,
          name: line.name,
          arguments: "{}",
          presentation: present({ name: line.name, arguments: "{}" }),
        };
        // A call refused before it ran has no start; ids recur across turns, so each is used once.
        const from = started.get(line.id);
        started.delete(line.id);
        const ms = from === undefined ? undefined : Date.parse(line.ts) - from;
        const child = children(line.id);
        const run: ToolRun = {
          ...call,
          ...(child ? { subagent: childWorkOf(child, present) } : {}),
          outcome: line.outcome,
          content: partsText(line.content as Part[]),
          ...(ms !== undefined && Number.isFinite(ms) && ms >= 0 ? { ms } : {}),
        };
        if (batch.order.includes(line.id)) batch.done.set(line.id, run);
        else add("tool", `${line.name} ${line.outcome}`, run);
        flushBatch(false);
        break;
      }
      case "compaction":
        out.lastPrompt = line.afterTokens;
        if (!line.failed)
          add("info", `compacted (${line.stage}): ${line.beforeTokens} → ${line.afterTokens} tokens`);
        break;
      case "notice":
        add("info", `notice: ${line.text}`);
        break;
      case "turn_end":
        // The error the turn ended on, as it was printed (the attempts made are not recorded).
        if (line.error) add("error", errorLine(line.error, 1, 0));
        if (line.stopReason === "cancelled") add("interrupted", "⏹ interrupted");
        add(
          "turn",
          turnLabel({
            turn: line.turn,
            stopReason: line.stopReason,
            toolRounds: toolRounds.get(line.turn) ?? 0,
            toolCalls: line.toolCalls,
            toolErrors: line.toolErrors,
            durationMs: line.durationMs,
            cost: line.cost,
          }),
        );
        break;
      case "cleared":
        out.lastPrompt = 0;
        break;
      case "undo":
        // R-UI-29: the files alone went back; the turns stay, so the mark says so.
        if (line.filesOnly)
          add("interrupted", `⟲ files restored to before turn ${line.toTurn + 1} (the conversation is kept)`);
        break;
      case "redo":
        if (line.filesOnly) add("interrupted", "⟲ redo: the files put back as they were before that restore");
        break;
      default:
        break;
    }
  }
  flushBatch(true);
  return out;
}

/**
 * The newest turns whose rows fit `maxRows` (the last turn always), and a line saying how many
 * turns are above them (`above`: turns before `items` begin), so a long session opens on its
 * end and not on a wall of scrollback. `cut`: a turn of `items` was left out.
 */
export function lastTurns(
  items: readonly ReplayItem[],
  rowsOf: (item: ReplayItem) => number,
  maxRows: number,
  sessionId: string,
  above = 0,
): { items: ReplayItem[]; cut: boolean } {
  const byTurn = new Map<number, ReplayItem[]>();
  for (const item of items) {
    const group = byTurn.get(item.turn);
    if (group) group.push(item);
    else byTurn.set(item.turn, [item]);
  }
  const turns = [...byTurn.keys()];
  let rows = 0;
  let keep = turns.length;
  while (keep > 0) {
    const more = (byTurn.get(turns[keep - 1]) ?? []).reduce((n, i) => n + rowsOf(i), 0);
    if (rows + more > maxRows && keep < turns.length) break;
    rows += more;
    keep--;
  }
  const hidden = above + turns.slice(0, keep).filter((t) => t > 0).length;
  const kept = new Set(turns.slice(keep));
  const shown = items.filter((i) => kept.has(i.turn));
  if (hidden === 0) return { items: shown, cut: false };
  const note: ReplayItem = {
    kind: "info",
    text: `… ${hidden} earlier turn${hidden === 1 ? "" : "s"} above · tern export ${sessionId} shows them all`,
    turn: 0,
  };
  return { items: [note, ...shown], cut: keep > 0 };
}

/** Rows of the replay at most (R-UI-17: about the last 200 lines). */
export const REPLAY_ROWS = 200;

/** Where each turn still in the conversation begins (its prompt's line), oldest first. */
function promptLines(lines: readonly TranscriptLine[]): number[] {
  const live = new Set(undoHistory(lines).live);
  const cleared = lines.findLastIndex((l) => l.type === "cleared");
  return lines.flatMap((l, i) => (l.type === "user_prompt" && i > cleared && live.has(l.turn) ? [i] : []));
}

/**
 * The replay of an attached session, cut to its last turns. Items are made for the newest turns
 * only, more of them until the rows are filled (a 1,000-turn record draws a few). Tools' code
 * loads only when there are calls to present.
 */
export async function sessionReplay(
  session: Session,
  cols: number,
  where?: { home: string; cwd: string },
): Promise<Replay> {
  const lines = session.transcript();
  const calls = lines.some((l) => l.type === "assistant_message" && l.toolCalls.length > 0);
  // Sub-agents' records are read only when a task call is there to fold them under.
  const tasks = lines.some(
    (l) => l.type === "assistant_message" && l.toolCalls.some((c) => c.name === "task"),
  );
  const started = tasks && where ? childRecords(where.home, where.cwd, session.id) : undefined;
  const children: ChildLookup = (id) => started?.get(id);
  const present: CallPresenter = calls
    ? await session.callPresenter()
    : (call) => ({ title: call.name, kind: "other", locations: [] });
  const prompts = promptLines(lines);
  const rowsOf = (i: ReplayItem) => itemRows({ id: 0, ...i }, cols).length;
  for (let turns = 16; ; turns *= 4) {
    const from = prompts.length > turns ? prompts[prompts.length - turns] : 0;
    const replay = replayRecord(lines, present, from, children);
    const above = prompts.filter((i) => i < from).length;
    const fitted = lastTurns(replay.items, rowsOf, REPLAY_ROWS, session.id, above);
    if (from === 0 || fitted.cut) return { ...replay, items: fitted.items };
  }
}

/** The store's action for an attached session: its replay at the terminal's width. */
export type ReplayAction = { type: "replay" } & Replay;

export async function replayAction(
  session: Session,
  where: { home: string; cwd: string },
): Promise<ReplayAction> {
  return { type: "replay", ...(await sessionReplay(session, process.stdout.columns || 80, where)) };
}
