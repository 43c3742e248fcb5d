// Builds a long session record with tern's own record code (the store creates the folder and
// session_start; the writer appends), then replays it through the fold so a record the product
// would refuse can never be measured or tested. Used by bench/ (resume) and the long-history
// compaction tests.
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createSession } from "../../src/record/store.js";
import { RecordFold } from "../../src/record/fold.js";
import { loadRecord } from "../../src/record/load.js";
import { metaFromLines, writeMeta } from "../../src/record/meta.js";
import { RecordWriter } from "../../src/record/writer.js";
import { RECORD_VERSION, type NewRecord, type RecordLine } from "../../src/record/types.js";

export interface BuiltRecord {
  id: string;
  dir: string;
  file: string;
  bytes: number;
  rounds: number;
}

/** A file body like a real read_file result: numbered source lines, ~`bytes` long. */
function fileText(seed: number, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const line = `${String(i).padStart(6)}\tconst value${seed}_${i} = compute(${i}, "item-${(seed * 31 + i) % 997}");`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

export interface LongRecordShape {
  rounds: number;
  roundsPerTurn: number;
  resultBytes: number;
  model: string;
  /** Length of each turn's final answer (default: a short line). */
  answerBytes?: number;
}

/**
 * The lines after session_start: `rounds` model rounds in turns of `roundsPerTurn`: every round
 * but a turn's last asks for one read_file call answered with ~`resultBytes` of text; the last
 * round answers in text (`answerBytes` long).
 */
export function* longRecordLines(opts: LongRecordShape): Generator<NewRecord> {
  const usage = { prompt: 1200, completion: 40, cacheRead: 1000, cacheWrite: 0 };
  yield { type: "context", system: "You are a coding agent.", tools: [] };
  let turn = 0;
  for (let round = 0; round < opts.rounds; ) {
    turn++;
    const started = new Date().toISOString();
    yield { type: "user_prompt", turn, content: [{ type: "text", text: `Task ${turn}: look at the files` }] };
    const inTurn = Math.min(opts.roundsPerTurn, opts.rounds - round);
    for (let r = 1; r <= inTurn; r++, round++) {
      const last = r === inTurn;
      const id = `call_${turn}_${r}`;
      const toolCalls = last
        ? []
        : [{ id, name: "read_file", arguments: JSON.stringify({ path: `src/file${r}.ts` }) }];
      yield {
        type: "assistant_message",
        turn,
        round: r,
        text: last ? `Done with task ${turn}.`.padEnd(opts.answerBytes ?? 0, " Done.") : "",
        reasoning: "",
        toolCalls,
        finish: last ? "stop" : "tool_calls",
        rawFinish: last ? "stop" : "tool_calls",
        usage,
        model: opts.model,
      };
      if (last) continue;
      yield { type: "tool_start", turn, id, name: "read_file" };
      yield {
        type: "tool_result",
        turn,
        id,
        name: "read_file",
        outcome: "ok",
        content: [{ type: "text", text: fileText(turn * 100 + r, opts.resultBytes) }],
      };
    }
    yield {
      type: "turn_end",
      turn,
      stopReason: "completed",
      rounds: inTurn,
      modelCalls: inTurn,
      toolCalls: inTurn - 1,
      toolErrors: 0,
      usage,
      cost: null,
      durationMs: 1000,
      startedAt: started,
    };
  }
}

/** The whole record in memory, session_start first, as the fold reads it (no file). */
export function longRecordInMemory(opts: LongRecordShape): RecordLine[] {
  const ts = new Date().toISOString();
  const lines: RecordLine[] = [
    { type: "session_start", v: RECORD_VERSION, seq: 1, ts, id: "mem", cwd: "/ws", model: opts.model },
  ];
  for (const line of longRecordLines(opts))
    lines.push({ ...line, v: RECORD_VERSION, seq: lines.length + 1, ts } as RecordLine);
  return lines;
}

/** The record on disk in a session folder of `home`, as tern writes it. */
export function buildRecord(home: string, cwd: string, opts: LongRecordShape): BuiltRecord {
  const created = createSession(home, { cwd, model: opts.model });
  created.writer.close();
  // Not fsync'ed per turn_end: building the fixture is not what is measured.
  const writer = RecordWriter.open(created.file, { syncAtTurnEnd: false });
  for (const line of longRecordLines(opts)) writer.append(line);
  writer.close();
  const bytes = statSync(created.file).size;
  const lines = loadRecord(created.file).lines;
  RecordFold.from(lines); // throws if any line would be inadmissible
  const meta = metaFromLines(lines, bytes);
  writeMeta(created.dir, meta);
  return { id: created.id, dir: created.dir, file: created.file, bytes, rounds: opts.rounds };
}

/**
 * Saves the session folder's files and returns a function that puts them back, so every resume
 * run starts from the same record (a run appends its turn and may compact).
 */
export function snapshotSession(dir: string): () => void {
  const saved = new Map<string, Buffer>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isFile()) saved.set(name, readFileSync(path));
  }
  return () => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isFile() && !saved.has(name)) rmSync(path);
    }
    for (const [name, data] of saved) writeFileSync(join(dir, name), data);
  };
}
