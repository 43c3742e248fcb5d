// `/context` (R-UI-24): what fills the model context, with token estimates (chars / 4, the way
// compaction estimates): the system prompt and its instruction files (R-WF-1) and skills index,
// the tool definitions, and the history since the last `/clear` — read from the record's latest
// `context` line and the lines after it, so it shows what was sent, not what is on disk now.
import type { TranscriptLine } from "../engine/session.js";
import { contextPercent } from "../vocab/context-share.js";
import type { SlashCommand } from "./host.js";

const tokens = (chars: number) => Math.ceil(chars / 4);

function textOf(content: readonly { type: string; text?: string }[]): number {
  return content.reduce((n, p) => n + (p.type === "text" ? (p.text?.length ?? 0) : 0), 0);
}

/** Characters of history in the record after the last `/clear`, compacted ranges counted as their summaries. */
function historyChars(lines: readonly TranscriptLine[]): number {
  let start = 0;
  lines.forEach((l, i) => {
    if (l.type === "cleared") start = i + 1;
  });
  const replaced = new Set<number>();
  let chars = 0;
  for (const l of lines.slice(start))
    if (l.type === "compaction" && l.stage === "summarize") {
      for (const m of lines) if (m.seq >= l.fromSeq && m.seq <= l.toSeq) replaced.add(m.seq);
      chars += l.summary?.length ?? 0;
    }
  for (const l of lines.slice(start)) {
    if (replaced.has(l.seq)) continue;
    if (l.type === "user_prompt" || l.type === "tool_result") chars += textOf(l.content);
    else if (l.type === "assistant_message")
      chars += l.text.length + JSON.stringify(l.toolCalls ?? []).length;
    else if (l.type === "notice") chars += l.text.length;
  }
  return chars;
}

/**
 * The prompt tokens the model last counted, as the status line has them (tui/replay.ts reads the
 * record the same way): the newest reply's usage, a compaction's result, 0 after `/clear`.
 */
export function promptInUse(lines: readonly TranscriptLine[]): number | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lines[i];
    if (l.type === "assistant_message" && l.usage) return l.usage.prompt;
    if (l.type === "compaction") return l.afterTokens;
    if (l.type === "cleared") return 0;
  }
  return undefined;
}

/** `window`: the model's context window, for the share in use. */
export function contextText(lines: readonly TranscriptLine[], window?: number): string {
  const context = lines.findLast((l) => l.type === "context");
  if (context?.type !== "context") return "no context yet";
  const out = [
    `system prompt  ~${tokens(context.system.length)} tokens`,
    `tools (${context.tools.length})  ~${tokens(JSON.stringify(context.tools).length)} tokens`,
  ];
  const sources = context.sources ?? [];
  const files = sources.filter((s) => s.kind === "instructions");
  out.push(files.length ? "instruction files:" : "instruction files: none");
  for (const f of files) out.push(`  ${f.path}  ~${f.tokens} tokens`);
  const skills = sources.filter((s) => s.kind === "skill");
  out.push(
    skills.length
      ? `skills index (${skills.length})  ~${skills.reduce((n, s) => n + s.tokens, 0)} tokens`
      : "skills index: none",
  );
  const notes = lines.filter(
    (l) => l.type === "notice" && l.text.startsWith("# Project instructions (from "),
  );
  for (const n of notes)
    if (n.type === "notice")
      out.push(
        `  joined later: ${/\nFile: ([^\n]+)/.exec(n.text)?.[1] ?? "?"}  ~${tokens(n.text.length)} tokens`,
      );
  const history = tokens(historyChars(lines));
  out.push(`history  ~${history} tokens`);
  // Instruction files and skills are part of the system prompt: not counted twice.
  const total = tokens(context.system.length) + tokens(JSON.stringify(context.tools).length) + history;
  out.push(`total  ~${total} tokens (estimated)`);
  // One number with the status line: the model's own count, the same rounding.
  const used = promptInUse(lines);
  if (window && used !== undefined)
    out.push(`in use  ${used} of ${window} tokens (${contextPercent(used, window)}%), as the status line`);
  else if (window) out.push(`in use  not counted yet (window ${window} tokens)`);
  return out.join("\n");
}

export const contextCommand: SlashCommand = {
  name: "/context",
  description: "what fills the context: system prompt, tools, instruction files, skills, history",
  timing: "now",
  run: (host) =>
    host.print(contextText(host.session.transcript(), host.session.status().model.info.contextWindow)),
};
