// The incremental fold of R-REC-1/-2: archive → model context, phase, open turn. Each apply is
// O(1) except the rare withdrawals (compaction, cleared, rewound), so a live session and a
// resume of a long record cost the same per line.
import { RecordError } from "./errors.js";
import {
  applyCompaction,
  type Entry,
  newRun,
  type OpenCall,
  tallyRun,
  type TurnInfo,
  toContent,
} from "./fold-parts.js";
import { checkRecord } from "./fold-check.js";
import { phaseAfter } from "./phases.js";
import type { ContextRecord, NewRecord, Phase, RecordLine, SessionStartRecord } from "./types.js";
import type { Message } from "../vocab/messages.js";

export type { Entry } from "./fold-parts.js";

export class RecordFold {
  private readonly lines: RecordLine[] = [];
  private entries: Entry[] = [];
  private bySeq = new Map<number, Entry>();
  private cache: Message[] | null = [];
  private _phase: Phase = "ReadyForUser";
  private _lastSeq = 0;
  private _context: ContextRecord | undefined;
  private _model: string | undefined;
  private _start: SessionStartRecord | undefined;
  private current: TurnInfo | undefined;
  /** Committed calls without a result, in call order. */
  private pending = new Map<string, OpenCall>();
  /** Context entries each standing undo withdrew, newest last: what a `redo` puts back. */
  private undone: Entry[][] = [];
  /** Position of each call in the newest assistant message: results are presented in call order. */
  private callOrder = new Map<string, number>();

  /** Replays lines into a new fold (throws RecordError on an inadmissible line). */
  static from(lines: Iterable<RecordLine>): RecordFold {
    const fold = new RecordFold();
    for (const line of lines) fold.apply(line);
    return fold;
  }

  get phase(): Phase {
    return this._phase;
  }
  /** Every line applied, in order (the archive). */
  get archive(): readonly RecordLine[] {
    return this.lines;
  }
  get lastSeq(): number {
    return this._lastSeq;
  }
  /** The newest turn number (0 before the first prompt); the next turn is lastTurn + 1. */
  get lastTurn(): number {
    return this.current?.turn ?? 0;
  }
  /** The newest turn, ended or not. */
  get latestTurn(): TurnInfo | undefined {
    return this.current;
  }
  /** The newest turn if it has no turn_end after its newest line. */
  get openTurn(): TurnInfo | undefined {
    return this.current && !this.current.ended ? this.current : undefined;
  }
  /** The system prompt and tool definitions in force. */
  get context(): ContextRecord | undefined {
    return this._context;
  }
  /** The model in force: the newest `config`, else session_start's. */
  get model(): string | undefined {
    return this._model;
  }
  get sessionStart(): SessionStartRecord | undefined {
    return this._start;
  }
  /** Committed tool calls that have no result yet, in call order. */
  get openCalls(): OpenCall[] {
    return [...this.pending.values()];
  }
  /** The model context. Shared and read-only: do not mutate. */
  get messages(): readonly Message[] {
    if (!this.cache) this.cache = this.entries.map((e) => e.msg);
    return this.cache;
  }

  /** The model context with each message's seq and turn. Shared and read-only. */
  get contextEntries(): readonly Readonly<Entry>[] {
    return this.entries;
  }

  /** Why this record may not be committed now, or null when it is admissible. */
  check(rec: NewRecord | RecordLine): string | null {
    return checkRecord(rec, {
      phase: this._phase,
      empty: this.lines.length === 0,
      lastTurn: this.lastTurn,
      lastSeq: this._lastSeq,
      pending: this.pending,
      canRedo: this.undone.length > 0,
    });
  }

  apply(line: RecordLine): void {
    if (line.seq <= this._lastSeq) throw new RecordError(`seq ${line.seq} does not follow ${this._lastSeq}`);
    const why = this.check(line);
    if (why) throw new RecordError(`record seq ${line.seq}: ${why}`);
    this.lines.push(line);
    this._lastSeq = line.seq;
    switch (line.type) {
      case "session_start":
        this._start = line;
        this._model = line.model;
        break;
      case "context":
        this._context = line;
        break;
      case "config":
        this._model = line.model;
        break;
      case "user_prompt":
        if (!this.current || line.turn > this.current.turn) {
          this.current = {
            turn: line.turn,
            startedAt: line.ts,
            lastTs: line.ts,
            rounds: [],
            ended: false,
            run: newRun(line.ts),
          };
        }
        this.touch(line.ts);
        this.push(line.seq, line.turn, { role: "user", content: toContent(line.content) });
        // New work after an undo: the undone turns can no longer be put back.
        this.undone = [];
        break;
      case "notice":
        this.push(line.seq, line.turn, { role: "user", content: [{ type: "text", text: line.text }] });
        break;
      case "assistant_message": {
        this.touch(line.ts)?.rounds.push({
          round: line.round,
          seq: line.seq,
          toolCalls: line.toolCalls,
          finish: line.finish,
        });
        const msg: Message = {
          role: "assistant",
          text: line.text,
          reasoning: line.reasoning,
          toolCalls: line.toolCalls,
        };
        if (line.thinkingBlocks?.length) msg.thinkingBlocks = line.thinkingBlocks;
        if (line.reasoningField) msg.reasoningField = line.reasoningField;
        if (line.providerItems?.length) msg.providerItems = line.providerItems;
        this.push(line.seq, line.turn, msg);
        this.callOrder = new Map(line.toolCalls.map((c, i) => [c.id, i]));
        for (const c of line.toolCalls)
          this.pending.set(c.id, { id: c.id, name: c.name, turn: line.turn, started: false });
        break;
      }
      case "tool_start":
        this.pending.get(line.id)!.started = true;
        this.touch(line.ts);
        break;
      case "tool_result": {
        this.pending.delete(line.id);
        this.touch(line.ts);
        this.pushToolResult(line.seq, line.turn, {
          role: "tool",
          toolCallId: line.id,
          toolName: line.name,
          content: toContent(line.content),
          isError: line.outcome !== "ok",
        });
        break;
      }
      case "turn_end":
        // The capstone never reaches the model; the phase stays (phaseAfter).
        if (this.current) {
          this.current.ended = true;
          this.current.run = newRun();
        }
        break;
      case "compaction":
        this.entries = applyCompaction(this.entries, this.bySeq, line);
        this.cache = null;
        break;
      case "cleared":
        this.entries = [];
        this.bySeq.clear();
        this.cache = [];
        this.undone = [];
        break;
      case "rewound":
        this.withdrawAfter(line.toTurn);
        break;
      case "undo":
        // A files-only restore keeps every turn: a redo of it has nothing to put back.
        this.undone.push(line.filesOnly ? [] : this.withdrawAfter(line.toTurn));
        break;
      case "redo":
        this.restoreEntries(this.undone.pop() ?? []);
        break;
      case "checkpoint":
      case "job_start":
      case "job_end":
      case "hook":
        break;
    }
    // By concern: the run tally of the open turn, and the phase the line leads to (phases.ts).
    if (this.current) tallyRun(this.current.run, line);
    this._phase = phaseAfter(line, this._phase, this.pending.size);
  }

  /** Withdraws the turns after `toTurn` from the model context; returns what it withdrew. */
  private withdrawAfter(toTurn: number): Entry[] {
    const removed: Entry[] = [];
    this.entries = this.entries.filter((e) => {
      if (e.turn <= toTurn) return true;
      this.bySeq.delete(e.seq);
      removed.push(e);
      return false;
    });
    this.cache = null;
    return removed;
  }

  /** Puts withdrawn entries back in record order. */
  private restoreEntries(restored: Entry[]): void {
    for (const e of restored) this.bySeq.set(e.seq, e);
    this.entries = [...this.entries, ...restored].sort((a, b) => a.seq - b.seq);
    this.cache = null;
  }

  private touch(ts: string): TurnInfo | undefined {
    if (this.current) {
      this.current.lastTs = ts;
      this.current.ended = false;
      if (!this.current.run.startedAt) this.current.run.startedAt = ts;
    }
    return this.current;
  }

  /**
   * Results are committed as calls finish (R-TOOL-3), so a later call's result may come first;
   * the model context still presents a batch's results in call order.
   */
  private pushToolResult(seq: number, turn: number, msg: Message & { role: "tool" }): void {
    const order = this.callOrder.get(msg.toolCallId) ?? Number.MAX_SAFE_INTEGER;
    let at = this.entries.length;
    while (at > 0) {
      const prev = this.entries[at - 1].msg;
      if (prev.role !== "tool" || (this.callOrder.get(prev.toolCallId) ?? -1) <= order) break;
      at--;
    }
    if (at === this.entries.length) {
      this.push(seq, turn, msg);
      return;
    }
    const entry = { seq, turn, msg };
    this.entries.splice(at, 0, entry);
    this.bySeq.set(seq, entry);
    this.cache = null;
  }

  private push(seq: number, turn: number, msg: Message): void {
    const entry = { seq, turn, msg };
    this.entries.push(entry);
    this.bySeq.set(seq, entry);
    this.cache?.push(msg);
  }
}
