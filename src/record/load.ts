// Reading record.jsonl. A torn last line (no newline: a crash mid-write) is ignored with a
// warning; a complete line that does not load stops the load, wherever it is (R-REC-4). Older lines get defaults (R-REC-7).
import { readFileSync } from "node:fs";
import { RecordError } from "./errors.js";
import { RECORD_VERSION, type RecordLine, type RecordType } from "./types.js";
import { emptyUsage } from "../vocab/usage.js";

export interface LoadedRecord {
  lines: RecordLine[];
  warnings: string[];
  /** Where it was read from (normally the file path), for messages. */
  name: string;
  /** The 1-based line of the text each of `lines` came from (blank lines are skipped). */
  lineNumbers: number[];
}

/** Field defaults per type: a line written before a field existed gets these (R-REC-7). */
const DEFAULTS: Record<RecordType, () => Record<string, unknown>> = {
  session_start: () => ({ id: "", cwd: "", model: "" }),
  context: () => ({ system: "", tools: [] }),
  user_prompt: () => ({ turn: 0, content: [] }),
  assistant_message: () => ({
    turn: 0,
    round: 0,
    text: "",
    reasoning: "",
    toolCalls: [],
    finish: "stop",
    rawFinish: null,
    usage: null,
    model: "",
  }),
  tool_start: () => ({ turn: 0, id: "", name: "" }),
  tool_result: () => ({ turn: 0, id: "", name: "", outcome: "ok", content: [] }),
  notice: () => ({ turn: 0, text: "" }),
  compaction: () => ({ stage: "shed", fromSeq: 0, toSeq: -1, beforeTokens: 0, afterTokens: 0 }),
  turn_end: () => ({
    turn: 0,
    stopReason: "completed",
    rounds: 0,
    modelCalls: 0,
    toolCalls: 0,
    toolErrors: 0,
    usage: emptyUsage(),
    cost: null,
    durationMs: 0,
    startedAt: "",
  }),
  cleared: () => ({}),
  hook: () => ({ event: "", command: "", exit: null, decision: "none", durationMs: 0 }),
  rewound: () => ({ toTurn: 0 }),
  job_start: () => ({ id: "", command: "", pid: 0, log: "" }),
  job_end: () => ({ id: "", status: "unknown", reason: "exited" }),
  config: () => ({ model: "" }),
  checkpoint: () => ({ turn: 0, round: 0, tree: "" }),
  undo: () => ({ toTurn: 0, tree: "", restored: "" }),
  redo: () => ({ restored: "" }),
};

export function isRecordType(value: unknown): value is RecordType {
  return typeof value === "string" && Object.hasOwn(DEFAULTS, value);
}

/**
 * Validates one parsed line and fills defaults. Throws a plain message (the caller adds file and
 * line) so the same rule serves load and the writer's tail check.
 */
export function normalizeLine(raw: unknown): RecordLine {
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw new Error("not a JSON object");
  const obj = raw as Record<string, unknown>;
  const v = obj.v === undefined ? 1 : obj.v;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1)
    throw new Error(`bad version ${JSON.stringify(v)}`);
  if (v > RECORD_VERSION) {
    throw new Error(
      `written by a newer tern (record format v${v}); this tern reads up to v${RECORD_VERSION}. Upgrade tern to open it`,
    );
  }
  if (!isRecordType(obj.type)) throw new Error(`unknown record type ${JSON.stringify(obj.type)}`);
  if (typeof obj.seq !== "number" || !Number.isInteger(obj.seq) || obj.seq < 1)
    throw new Error("missing or bad seq");
  const line: Record<string, unknown> = {
    ...DEFAULTS[obj.type](),
    ...obj,
    v,
    ts: typeof obj.ts === "string" ? obj.ts : "",
  };
  if (line.type === "turn_end") line.usage = { ...emptyUsage(), ...(line.usage as object) };
  return line as unknown as RecordLine;
}

/** Parses record text; `name` is used in messages (normally the file path). */
export function parseRecord(text: string, name: string): LoadedRecord {
  const warnings: string[] = [];
  const lines: RecordLine[] = [];
  const lineNumbers: number[] = [];
  const parts = text.split("\n");
  // The element after the final "\n" is "" for a clean file, else a fragment without newline.
  const tornFragment = parts.pop() ?? "";
  // Only a line without its newline is torn (a crash mid-write). A complete line that does not
  // load (unknown type, bad JSON) is damage or a newer tern, wherever it stands (R-REC-4).
  if (tornFragment.trim() !== "") {
    warnings.push(`${name}: ignored a torn last line (no trailing newline; a crash cut it off)`);
  }
  let prevSeq = 0;
  for (let i = 0; i < parts.length; i++) {
    const text = parts[i];
    if (text.trim() === "") continue;
    let line: RecordLine;
    try {
      line = normalizeLine(JSON.parse(text));
    } catch (err) {
      const msg = err instanceof SyntaxError ? `unparsable JSON (${err.message})` : (err as Error).message;
      throw new RecordError(`${name}: line ${i + 1}: ${msg}`);
    }
    if (line.seq <= prevSeq)
      throw new RecordError(`${name}: line ${i + 1}: seq ${line.seq} does not follow ${prevSeq}`);
    prevSeq = line.seq;
    lines.push(line);
    lineNumbers.push(i + 1);
  }
  return { lines, warnings, name, lineNumbers };
}

/** Loads a record file. Throws RecordError for a corrupt line (not the last) or a newer format. */
export function loadRecord(file: string): LoadedRecord {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    throw new RecordError(`${file}: cannot read the session record (${(err as Error).message})`);
  }
  return parseRecord(text, file);
}
