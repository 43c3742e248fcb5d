// System prompt assembly in SPEC §8 order: base prompt → instruction files (R-WF-1) → --system
// text → skills index. Tool definitions travel separately in the request. The output depends only
// on its inputs and the files, sorted, so it is byte-identical across calls and provider caches hit.
import { basePrompt } from "./base.js";
import { normalizeText } from "./bounded-read.js";
import type { CompatSwitches, InstructionFile } from "./instruction-files.js";
import { formatInstructions, type LoadedInstructions, loadInstructions } from "./instructions.js";
import { findSkills, formatSkillsIndex, type Skill } from "./skills.js";

export interface AssembleOptions {
  cwd: string;
  /** $TERN_HOME */
  home: string;
  /** `--system <text>` */
  extraSystem?: string;
  toolNames: string[];
  /** The user's home folder (`~/.claude/…`, `@~/…` imports); HOME from the environment. */
  userHome?: string;
  /** R-WF-5: reading Claude Code's and other agents' files (default: both on). */
  compat?: CompatSwitches;
  /** The person's `trustedWorkspaces`: only a trusted workspace's files may import from TERN_HOME (§10). */
  trustedWorkspaces?: readonly string[];
  /** Claude Code plugins (R-WF-6): their skills join the index as `<plugin>:<skill>`. */
  plugins?: readonly { name: string; root: string }[];
}

export interface AssembledPrompt {
  text: string;
  warnings: string[];
  /** Every instruction file loaded, in prompt order (for `/context` and the record). */
  instructions: LoadedInstructions;
  skills: Skill[];
}

/** The prompt with what it was made of, and notices about files that could not be used. */
export function assembleSystemPromptParts(opts: AssembleOptions): AssembledPrompt {
  const compat = opts.compat ?? { claude: true, agents: true };
  const sections = [basePrompt(opts.cwd, opts.toolNames)];
  const instructions = loadInstructions({
    cwd: opts.cwd,
    home: opts.home,
    userHome: opts.userHome,
    compat,
    trustedWorkspaces: opts.trustedWorkspaces,
  });
  const formatted = formatInstructions(instructions.files);
  if (formatted.text) sections.push(formatted.text);
  const extra = opts.extraSystem !== undefined ? normalizeText(opts.extraSystem) : "";
  if (extra) sections.push(`# Additional instructions\n\n${extra}`);
  const { skills, warnings } = findSkills({
    cwd: opts.cwd,
    home: opts.home,
    userHome: opts.userHome,
    compat,
    trustedWorkspaces: opts.trustedWorkspaces,
    plugins: opts.plugins,
  });
  if (skills.length > 0) sections.push(formatSkillsIndex(skills));
  return {
    text: `${sections.join("\n\n")}\n`,
    warnings: [...instructions.warnings, ...formatted.warnings, ...warnings],
    instructions,
    skills,
  };
}

/** Same as assembleSystemPrompt, plus warnings about files that could not be read. */
export function assembleSystemPromptWithWarnings(opts: AssembleOptions): {
  text: string;
  warnings: string[];
} {
  const { text, warnings } = assembleSystemPromptParts(opts);
  return { text, warnings };
}

export function assembleSystemPrompt(opts: AssembleOptions): string {
  return assembleSystemPromptParts(opts).text;
}

export type { CompatSwitches, InstructionFile };
