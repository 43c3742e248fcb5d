// Report texts of the slash commands, from the session's read-only queries.
import type { JobSummary, TranscriptLine } from "../engine/session.js";
import { stripControlSequences } from "../workspace/terminal-text.js";
import type { CommandHost } from "./host.js";
import { money } from "../vocab/cost.js";

/**
 * The session's cost; side questions' cost apart, when there were any (R-SIDE-4). A model without
 * a known price makes it unknown from the start, never `$0.0000` (R-PROV-6), in every front end.
 */
export function costText(host: CommandHost): string {
  const priced = host.session.status().model.info.pricing !== undefined;
  const cost = priced ? host.cost() : null;
  const side = host.sideCost();
  return side === 0 ? money(cost) : `${money(cost)} (+ ${money(side)} side questions)`;
}

/** Tokens the session's turns and out-of-turn summaries used, from the record (R-UI-22). */
export function tokensText(transcript: readonly TranscriptLine[]): string {
  let input = 0;
  let output = 0;
  for (const line of transcript) {
    const usage =
      line.type === "turn_end" ? line.usage : line.type === "compaction" && line.bill ? line.usage : null;
    if (!usage) continue;
    input += usage.prompt;
    output += usage.completion;
  }
  return `tokens ${input} in · ${output} out`;
}

/** `/cost`: the money, or that it is unknown, and the tokens either way. */
export function costReport(host: CommandHost): string {
  const money = host.cost() === null ? "unknown (no price known for the model)" : costText(host);
  return `cost so far: ${money} · ${tokensText(host.session.transcript())}`;
}

export function statusText(host: CommandHost): string {
  const s = host.session.status();
  return [
    `session ${s.id}`,
    `model ${s.model.id}`,
    `thinking ${s.model.thinking}`,
    ...host.statusFacts(),
    `cost ${costText(host)}`,
  ].join(" · ");
}

/** Tool calls by tool, most used first, with their share. */
export function statsText(transcript: readonly TranscriptLine[]): string {
  const counts = new Map<string, number>();
  for (const line of transcript)
    if (line.type === "tool_result") counts.set(line.name, (counts.get(line.name) ?? 0) + 1);
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return "no tool calls yet";
  return [
    `${total} tool calls`,
    ...[...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([name, n]) => `  ${name.padEnd(14)} ${String(n).padStart(4)}  ${Math.round((n / total) * 100)}%`),
  ].join("\n");
}

/** `/jobs`: each background job, its state, and its last lines (control sequences stripped, §10). */
export function jobsText(jobs: readonly JobSummary[]): string {
  if (jobs.length === 0) return "no background jobs";
  return jobs
    .map((j) => {
      const state = j.state.kind === "running" ? `running, pid ${j.pid}` : `exited ${j.state.status}`;
      const lines = j.lastLines.map((l) => `    ${stripControlSequences(l).slice(0, 200)}`);
      return [`${j.id}  ${state}  ${stripControlSequences(j.command).slice(0, 120)}`, ...lines].join("\n");
    })
    .join("\n");
}
