// Skills (R-WF-2, the index of SPEC §8): each `<root>/<name>/SKILL.md` under `.tern/skills`,
// `$TERN_HOME/skills`, `.claude/skills`, `~/.claude/skills` and `.agents/skills`. The index
// carries name, description and path (front matter only); the body stays on disk until the
// model reads it or the person runs `/skill:<name>`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { listField, splitFrontMatter, textField } from "../config/front-matter.js";
import { foreignWorkspaceFile } from "../config/workspace-reach.js";
import { workspaceTrusted } from "../config/workspace-trust.js";
import type { CompatSwitches } from "./instruction-files.js";

export interface Skill {
  name: string;
  description: string;
  /** Absolute path of the SKILL.md. */
  path: string;
  argumentHint?: string;
  allowedTools?: string[];
  model?: string;
  /** "project" for a workspace's skill (its allowed-tools need trust, §10), "user" for the person's. */
  scope: "project" | "user";
}

export interface SkillRoots {
  cwd: string;
  home: string;
  /** The user's home folder (`~/.claude/skills`); HOME from the environment. */
  userHome?: string;
  compat?: CompatSwitches;
  /** Entries read per skills folder; MAX_SKILL_ENTRIES unless given. */
  maxEntries?: number;
  /** The person's `trustedWorkspaces`: an untrusted workspace's skill leading outside it is not read (§10). */
  trustedWorkspaces?: readonly string[];
  /** Claude Code plugins (R-WF-6): their `skills/` folders, each skill named `<plugin>:<skill>`. */
  plugins?: readonly { name: string; root: string }[];
}

const MAX_DESCRIPTION = 600;
/**
 * Entries of one skills folder looked at: each costs two stats and a read at session start, and
 * a folder of thousands (a generated or mistaken one) must not hold the start up.
 */
export const MAX_SKILL_ENTRIES = 500;

function readSkill(
  path: string,
  dirName: string,
  scope: Skill["scope"],
): { skill?: Skill; warning?: string } {
  const parsed = splitFrontMatter(readFileSync(path, "utf8"));
  if (!parsed.ok) return { warning: `${path}: ${parsed.error}; skill skipped` };
  const data = parsed.data;
  const name = textField(data, "name") || dirName;
  let description = textField(data, "description");
  if (description.length > MAX_DESCRIPTION) description = `${description.slice(0, MAX_DESCRIPTION - 1)}…`;
  const skill: Skill = { name, description, path, scope };
  const hint = textField(data, "argument-hint");
  if (hint) skill.argumentHint = hint;
  const tools = listField(data, "allowed-tools");
  if (tools.length) skill.allowedTools = tools;
  const model = textField(data, "model");
  if (model) skill.model = model;
  return { skill };
}

/** Whether a project skill's file may be read: one leading outside an untrusted workspace may not. */
type MayRead = (path: string, scope: Skill["scope"]) => string | undefined;

function scan(
  root: string,
  scope: Skill["scope"],
  skills: Skill[],
  warnings: string[],
  max: number,
  mayRead: MayRead,
): void {
  let entries: string[];
  try {
    entries = readdirSync(root).sort();
  } catch {
    return; // no skills folder
  }
  if (entries.length > max) {
    warnings.push(
      `${root}: ${entries.length} entries, more than ${max}; only the first ${max} (by name) are read as skills`,
    );
    entries = entries.slice(0, max);
  }
  for (const entry of entries) {
    const path = join(root, entry, "SKILL.md");
    try {
      if (!statSync(join(root, entry)).isDirectory() || !statSync(path).isFile()) continue;
    } catch {
      continue;
    }
    const foreign = mayRead(path, scope);
    if (foreign) {
      warnings.push(foreign);
      continue;
    }
    try {
      const { skill, warning } = readSkill(path, entry, scope);
      if (skill) skills.push(skill);
      if (warning) warnings.push(warning);
    } catch (e) {
      warnings.push(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? "error"}); skill skipped`);
    }
  }
}

/** The skill folders in precedence order: project before user, tern's before Claude's and others'. */
export function skillRoots(opts: SkillRoots): string[] {
  const compat = opts.compat ?? { claude: true, agents: true };
  const roots = [join(opts.cwd, ".tern", "skills"), join(opts.home, "skills")];
  if (compat.claude) {
    roots.push(join(opts.cwd, ".claude", "skills"));
    if (opts.userHome) roots.push(join(opts.userHome, ".claude", "skills"));
  }
  if (compat.agents) roots.push(join(opts.cwd, ".agents", "skills"));
  return roots;
}

/** The first folder naming a skill wins; the result is sorted by name. */
export function findSkills(opts: SkillRoots): { skills: Skill[]; warnings: string[] } {
  const warnings: string[] = [];
  const skills: Skill[] = [];
  const names = new Set<string>();
  const trusted = workspaceTrusted(opts.cwd, opts.trustedWorkspaces ?? []);
  const mayRead: MayRead = (path, scope) =>
    scope === "project"
      ? foreignWorkspaceFile(path, { roots: [opts.cwd], home: opts.home, trusted })
      : undefined;
  const userRoots = [
    join(opts.home, "skills"),
    ...(opts.userHome ? [join(opts.userHome, ".claude", "skills")] : []),
  ];
  for (const root of skillRoots(opts)) {
    const found: Skill[] = [];
    const scope = userRoots.includes(root) ? "user" : "project";
    scan(root, scope, found, warnings, opts.maxEntries ?? MAX_SKILL_ENTRIES, mayRead);
    for (const s of found.filter((s) => !names.has(s.name))) skills.push(s);
    for (const s of found) names.add(s.name);
  }
  for (const plugin of opts.plugins ?? []) {
    const found: Skill[] = [];
    // A plugin loads only by the person's choice (a project's only in a trusted workspace): its skills are theirs.
    scan(
      join(plugin.root, "skills"),
      "user",
      found,
      warnings,
      opts.maxEntries ?? MAX_SKILL_ENTRIES,
      () => undefined,
    );
    for (const s of found) skills.push({ ...s, name: `${plugin.name}:${s.name}` });
  }
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
