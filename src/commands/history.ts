// `/history` (the transcript groups rows by turn, so `/history N` addresses a turn by its
// number): the list of turns with their prompts, or one turn whole — its prompts (follow-ups that
// joined it too), answers, tool calls with the head of their results, notices and how it ended.
import type { TranscriptLine } from "../engine/session.js";

/** A tool result shows this many lines; the rest is counted (the record keeps them whole). */
const RESULT_LINES = 5;
/** `/history` lists the newest this many turns; older ones are counted. */
const LISTED = 50;

type Line = TranscriptLine & { turn: number };

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((p: { type?: string; text?: string }) => (p.type === "text" ? (p.text ?? "") : "[image]"))
    .join(" ");
}

/**
 * Each turn's lines, in record order. A turn number used again after a rewind starts afresh: the
 * newest run of a number is the one the session knows.
 */
function turns(transcript: readonly TranscriptLine[]): Map<number, Line[]> {
  const byTurn = new Map<number, Line[]>();
  for (const line of transcript) {
    if (!("turn" in line) || typeof line.turn !== "number") continue;
    const turnLine = line as Line;
    const run = byTurn.get(turnLine.turn);
    if (!run || (turnLine.type === "user_prompt" && run.some((l) => l.type === "turn_end")))
      byTurn.set(turnLine.turn, [turnLine]);
    else run.push(turnLine);
  }
  return byTurn;
}

/** Every turn (the newest 50) with its first prompt: `   3  fix the test`. */
export function historyList(transcript: readonly TranscriptLine[]): string {
  const rows = [...turns(transcript).entries()]
    .sort((a, b) => a[0] - b[0])
    .flatMap(([turn, lines]) => {
      const prompt = lines.find((l) => l.type === "user_prompt");
      return prompt ? [`${String(turn).padStart(4)}  ${textOf(prompt.content).split("\n")[0]}`] : [];
    });
  if (rows.length === 0) return "no turns yet";
  const older = rows.length - LISTED;
  const shown = older > 0 ? [`… ${older} earlier turns`, ...rows.slice(-LISTED)] : rows;
  return [...shown, "/history N shows turn N whole"].join("\n");
}

/** Turn `n` whole, or a line saying which turns there are. */
export function historyTurn(transcript: readonly TranscriptLine[], n: number): string {
  const all = turns(transcript);
  const lines = all.get(n);
  if (!lines) {
    const numbers = [...all.keys()];
    return numbers.length === 0
      ? "no turns yet"
      : `no turn ${n} (turns ${Math.min(...numbers)}..${Math.max(...numbers)})`;
  }
  const out: string[] = [`turn ${n}`];
  for (const line of lines) {
    if (line.type === "user_prompt") out.push(`› ${textOf(line.content)}`);
    else if (line.type === "assistant_message") {
      if (line.text.trim()) out.push(line.text.trim());
      for (const call of line.toolCalls) out.push(`→ ${call.name} ${call.arguments}`);
    } else if (line.type === "tool_result")
      out.push(...resultRows(line.name, line.outcome, textOf(line.content)));
    else if (line.type === "notice") out.push(`notice: ${line.text}`);
    else if (line.type === "turn_end")
      out.push(
        `— turn ${n} · ${line.stopReason} · model calls=${line.modelCalls} · tools=${line.toolCalls} · errors=${line.toolErrors} · ${(line.durationMs / 1000).toFixed(1)}s`,
      );
  }
  return out.join("\n");
}

function resultRows(name: string, outcome: string, content: string): string[] {
  const rows = content.split("\n");
  const head = rows.slice(0, RESULT_LINES).map((r) => `    ${r}`);
  const left = rows.length - RESULT_LINES;
  const more = left > 0 ? [`    … ${left} more line${left === 1 ? "" : "s"}`] : [];
  return [`  ${name} ${outcome}`, ...head, ...more];
}
