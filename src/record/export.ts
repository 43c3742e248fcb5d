// R-REC-6 export: the archive (not the model context) as JSON, or as Markdown a person reads.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { attachmentsDir } from "./attachments.js";
import { RecordError } from "./errors.js";
import { loadRecord } from "./load.js";
import { type SessionMeta, totalCost } from "./meta.js";
import { findSession, recordFile, sessionMeta } from "./store.js";
import type { RecordContentPart, RecordLine, TurnEndRecord } from "./types.js";
import { money } from "../vocab/cost.js";
import { jsonText } from "../vocab/json-text.js";

export type ExportFormat = "md" | "json";

export function exportSession(home: string, id: string, format: ExportFormat): string {
  const found = findSession(home, id);
  if (!found) throw new RecordError(`no session '${id}'`);
  const { lines } = loadRecord(recordFile(found.dir));
  const meta = sessionMeta(found.dir);
  if (format === "json") {
    const { recordSize: _r, lastSeq: _l, turnCosts: _t, ...session } = meta;
    return `${jsonText({ session: { ...session, cost: totalCost(meta) }, records: lines }, 2)}\n`;
  }
  return renderMarkdown(lines, meta, (ref) => existsSync(join(attachmentsDir(found.dir), ref)));
}

const fence = (text: string): string => {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((m) => m.length));
  const f = "`".repeat(longest + 1);
  return `${f}\n${text}\n${f}`;
};

const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function contentText(parts: RecordContentPart[], hasImage: (ref: string) => boolean): string {
  return parts
    .map((p) =>
      p.type === "text"
        ? p.text
        : hasImage(p.ref)
          ? `[image ${p.mediaType}: attachments/${p.ref}]`
          : `[image deleted: ${p.ref}]`,
    )
    .join("\n");
}

/** A one-line label for a call: `bash: ls -la`, `read_file: src/a.ts`, else the tool name. */
function callLabel(name: string, args: string): string {
  let detail = "";
  try {
    const parsed = JSON.parse(args) as Record<string, unknown>;
    const first = ["command", "path", "file_path", "pattern", "query"]
      .map((k) => parsed?.[k])
      .find((v) => typeof v === "string");
    if (typeof first === "string") detail = first.split("\n")[0].slice(0, 80);
  } catch {
    detail = "";
  }
  return escapeHtml(detail ? `${name}: ${detail}` : name);
}

function turnFooter(t: TurnEndRecord): string {
  const u = t.usage;
  return (
    `_Turn ${t.turn} ended: ${t.stopReason} · rounds ${t.rounds} · model calls ${t.modelCalls} · ` +
    `tool calls ${t.toolCalls} (errors ${t.toolErrors}) · tokens in ${u.prompt} (cache read ${u.cacheRead}, ` +
    `write ${u.cacheWrite}) out ${u.completion} · cost ${money(t.cost)} · ${(t.durationMs / 1000).toFixed(1)} s_` +
    (t.error
      ? `\n\n> error (${t.error.class}${t.error.status ? ` ${t.error.status}` : ""}): ${t.error.message}`
      : "")
  );
}

export function renderMarkdown(
  lines: readonly RecordLine[],
  meta: SessionMeta,
  hasImage: (ref: string) => boolean,
): string {
  const out: string[] = [];
  const ends = lines.filter((l): l is TurnEndRecord => l.type === "turn_end");
  const sum = (f: (t: TurnEndRecord) => number) => ends.reduce((a, t) => a + f(t), 0);
  out.push(`# tern session ${meta.id}`, "");
  out.push(`- model: ${meta.model}`, `- workspace: ${meta.cwd}`, `- started: ${meta.started}`);
  if (meta.parent?.agent)
    out.push(`- sub-agent '${meta.parent.agent}' of: ${meta.parent.session} at turn ${meta.parent.turn}`);
  else if (meta.parent) out.push(`- forked from: ${meta.parent.session} at turn ${meta.parent.turn}`);
  out.push(
    `- turns: ${meta.turns}`,
    `- tokens: in ${sum((t) => t.usage.prompt)}, out ${sum((t) => t.usage.completion)}`,
    `- cost: ${money(totalCost(meta))}`,
    "",
  );
  const calls = new Map<string, { name: string; args: string }>();
  for (const line of lines) {
    switch (line.type) {
      case "user_prompt":
        out.push(`## Turn ${line.turn}`, "", "**User**", "", contentText(line.content, hasImage), "");
        break;
      case "assistant_message":
        if (line.reasoning) {
          out.push("<details><summary>reasoning</summary>", "", fence(line.reasoning), "", "</details>", "");
        }
        if (line.text) out.push("**Assistant**", "", line.text, "");
        for (const c of line.toolCalls) calls.set(c.id, { name: c.name, args: c.arguments });
        if (line.finish !== "stop" && line.finish !== "tool_calls") out.push(`_finish: ${line.finish}_`, "");
        break;
      case "tool_result": {
        const call = calls.get(line.id);
        const label = callLabel(line.name, call?.args ?? "");
        out.push(
          `<details><summary>${label}${line.outcome === "ok" ? "" : ` (${line.outcome})`}</summary>`,
          "",
        );
        if (call) out.push("Arguments:", "", fence(call.args), "");
        out.push("Result:", "", fence(contentText(line.content, hasImage)), "", "</details>", "");
        break;
      }
      case "notice":
        out.push(`> notice: ${line.text.replace(/\n/g, "\n> ")}`, "");
        break;
      case "compaction":
        out.push(
          `---`,
          "",
          line.failed !== undefined
            ? `_Compaction (${line.stage}) failed: ${line.failed}_`
            : `_Compaction (${line.stage}) of records ${line.fromSeq}–${line.toSeq}: ${line.beforeTokens} → ${line.afterTokens} tokens_`,
          "",
        );
        if (line.summary)
          out.push("<details><summary>summary</summary>", "", line.summary, "", "</details>", "");
        break;
      case "cleared":
        out.push("---", "", "_Context cleared (/clear): earlier turns are no longer sent to the model._", "");
        break;
      case "rewound":
        out.push(
          "---",
          "",
          `_Rewound to turn ${line.toTurn}: later turns withdrawn from the model context._`,
          "",
        );
        break;
      case "config":
        out.push(`_Model switched to ${line.model}_`, "");
        break;
      case "undo":
        out.push(
          "---",
          "",
          line.filesOnly
            ? `_Files restored to before turn ${line.toTurn + 1}; the conversation kept._`
            : `_Undo: files restored and turns after ${line.toTurn} withdrawn from the model context._`,
          "",
        );
        break;
      case "redo":
        out.push(
          "---",
          "",
          line.filesOnly
            ? "_Redo: the files-only restore taken back (the files as they were before it)._"
            : "_Redo: the last undo taken back (files and turns)._",
          "",
        );
        break;
      case "turn_end":
        out.push(turnFooter(line), "");
        break;
      default:
        break;
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}
