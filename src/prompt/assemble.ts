// System prompt assembly in SPEC §8 order: base prompt → AGENTS.md → --system text → skills
// index. Tool definitions travel separately in the request. The output depends only on its
// inputs and the files, sorted, so it is byte-identical across calls and provider caches hit.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { basePrompt } from "./base.js";
import { findSkills, formatSkillsIndex } from "./skills.js";

export interface AssembleOptions {
  cwd: string;
  /** $TERN_HOME */
  home: string;
  /** `--system <text>` */
  extraSystem?: string;
  toolNames: string[];
}

const normalize = (text: string) =>
  text
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n")
    .trim();

function readAgentsMd(cwd: string): string | null {
  try {
    const text = normalize(readFileSync(join(cwd, "AGENTS.md"), "utf8"));
    return text.length > 0 ? text : null;
  } catch {
    return null;
  }
}

/** Same as assembleSystemPrompt, plus warnings about skills that could not be read. */
export function assembleSystemPromptWithWarnings(opts: AssembleOptions): {
  text: string;
  warnings: string[];
} {
  const sections = [basePrompt(opts.cwd, opts.toolNames)];
  const agents = readAgentsMd(opts.cwd);
  if (agents) {
    sections.push(`# Project instructions (from AGENTS.md in the workspace)\n\n${agents}`);
  }
  const extra = opts.extraSystem !== undefined ? normalize(opts.extraSystem) : "";
  if (extra) sections.push(`# Additional instructions\n\n${extra}`);
  const { skills, warnings } = findSkills({ cwd: opts.cwd, home: opts.home });
  if (skills.length > 0) sections.push(formatSkillsIndex(skills));
  return { text: `${sections.join("\n\n")}\n`, warnings };
}

export function assembleSystemPrompt(opts: AssembleOptions): string {
  return assembleSystemPromptWithWarnings(opts).text;
}
