// The skills index (SPEC §8): name, description and path of each SKILL.md under
// `<cwd>/.tern/skills/*/` and `$TERN_HOME/skills/*/`. Only the front matter is read; the body
// stays on disk until the model reads it.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

// yaml is required on the first front matter only (and kept out of the bundle, see
// scripts/build.mjs): most workspaces have no skills, and it would be a third of the start path.
let parseYaml: ((text: string) => unknown) | undefined;
function parse(text: string): unknown {
  parseYaml ??= (createRequire(import.meta.url)("yaml") as typeof import("yaml")).parse;
  return parseYaml(text);
}

export interface Skill {
  name: string;
  description: string;
  /** Absolute path of the SKILL.md. */
  path: string;
}

const FRONT_MATTER = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;
const MAX_DESCRIPTION = 600;

const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();

function readSkill(path: string, dirName: string): { skill?: Skill; warning?: string } {
  const text = readFileSync(path, "utf8");
  const match = FRONT_MATTER.exec(text);
  if (!match) return { skill: { name: dirName, description: "", path } };
  let meta: unknown;
  try {
    meta = parse(match[1]);
  } catch (e) {
    return {
      warning: `${path}: front matter is not valid YAML (${oneLine((e as Error).message)}); skill skipped`,
    };
  }
  const data = (typeof meta === "object" && meta !== null ? meta : {}) as Record<string, unknown>;
  const name = typeof data.name === "string" && data.name.trim() ? oneLine(data.name) : dirName;
  let description = typeof data.description === "string" ? oneLine(data.description) : "";
  if (description.length > MAX_DESCRIPTION) description = `${description.slice(0, MAX_DESCRIPTION - 1)}…`;
  return { skill: { name, description, path } };
}

function scan(root: string, skills: Skill[], warnings: string[]): void {
  let entries: string[];
  try {
    entries = readdirSync(root).sort();
  } catch {
    return; // no skills folder
  }
  for (const entry of entries) {
    const path = join(root, entry, "SKILL.md");
    try {
      if (!statSync(join(root, entry)).isDirectory() || !statSync(path).isFile()) continue;
    } catch {
      continue;
    }
    try {
      const { skill, warning } = readSkill(path, entry);
      if (skill) skills.push(skill);
      if (warning) warnings.push(warning);
    } catch (e) {
      warnings.push(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? "error"}); skill skipped`);
    }
  }
}

/** Workspace skills win over home skills of the same name; the result is sorted by name, then path. */
export function findSkills(opts: { cwd: string; home: string }): { skills: Skill[]; warnings: string[] } {
  const warnings: string[] = [];
  const workspace: Skill[] = [];
  const home: Skill[] = [];
  scan(join(opts.cwd, ".tern", "skills"), workspace, warnings);
  scan(join(opts.home, "skills"), home, warnings);
  const names = new Set(workspace.map((s) => s.name));
  const skills = [...workspace, ...home.filter((s) => !names.has(s.name))];
  skills.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.path < b.path ? -1 : 1));
  return { skills, warnings };
}

export function formatSkillsIndex(skills: readonly Skill[]): string {
  const lines = [
    "# Skills",
    "Skills are task-specific instructions kept on disk. When a task matches one, read its SKILL.md before starting.",
  ];
  for (const s of skills) lines.push(`- ${s.name}${s.description ? `: ${s.description}` : ""} (${s.path})`);
  return lines.join("\n");
}
