// YAML front matter of the markdown files other agents keep (Claude Code's commands and skills,
// SKILL.md): `---` lines around YAML at the very top. Shared by the skills index (prompt/) and
// the custom commands, so both read a file the same way and give the same one-line error.
import { createRequire } from "node:module";

// yaml is required on the first front matter only (and kept out of the bundle, see
// scripts/build.mjs): most workspaces have none, and it would be a third of the start path.
let parseYaml: ((text: string) => unknown) | undefined;
function parse(text: string): unknown {
  parseYaml ??= (createRequire(import.meta.url)("yaml") as typeof import("yaml")).parse;
  return parseYaml(text);
}

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/;

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

export type FrontMatter =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; error: string; body: string };

/** The front matter's fields and the body after it; no front matter = no fields, the whole text. */
export function splitFrontMatter(text: string): FrontMatter {
  const match = FRONT_MATTER.exec(text);
  if (!match) return { ok: true, data: {}, body: text.replace(/^\uFEFF/, "") };
  const body = text.slice(match[0].length);
  let meta: unknown;
  try {
    meta = parse(match[1]);
  } catch (e) {
    return { ok: false, error: `front matter is not valid YAML (${oneLine((e as Error).message)})`, body };
  }
  if (meta !== null && meta !== undefined && (typeof meta !== "object" || Array.isArray(meta)))
    return { ok: false, error: "front matter is not a YAML mapping", body };
  return { ok: true, data: (meta ?? {}) as Record<string, unknown>, body };
}

/** A front matter field as one line of text ('' when absent or not text). */
export function textField(data: Record<string, unknown>, key: string): string {
  const v = data[key];
  return typeof v === "string" ? oneLine(v) : typeof v === "number" ? String(v) : "";
}

/**
 * A list field as Claude Code writes it: a YAML list or one comma-separated string
 * (`allowed-tools: Bash(git add:*), Read`); commas inside parentheses stay in their entry.
 */
export function listField(data: Record<string, unknown>, key: string): string[] {
  const v = data[key];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === "string").map((s) => s.trim());
  if (typeof v !== "string") return [];
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of v) {
    if (ch === "(") depth++;
    else if (ch === ")") depth = Math.max(0, depth - 1);
    if ((ch === "," || (ch === " " && depth === 0 && /\)$|^[A-Za-z_]+$/.test(current))) && depth === 0) {
      if (current.trim()) out.push(current.trim());
      current = "";
      continue;
    }
    current += ch;
  }
  if (current.trim()) out.push(current.trim());
  return out;
}
