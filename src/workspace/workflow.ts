// A user's workflow files for the front ends (R-WF-2): custom command files and skills of a
// workspace, found the way the prompt finds them, and how their bodies become a prompt. The
// front ends' shared command table (commands/) turns them into slash commands.
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { splitFrontMatter } from "../config/front-matter.js";
import type { Config } from "../config/types.js";
import { assembleSystemPromptParts } from "../prompt/assemble.js";
import { type CustomCommand, findCustomCommands } from "../prompt/custom-commands.js";
import { expandArguments } from "../prompt/expand.js";
import { findSkills, type Skill } from "../prompt/skills.js";
import { projectServers } from "./project-servers.js";

export type { CustomCommand, Skill };
export type { McpPrompt } from "../tools/mcp/mcp-prompts.js";
export { expandArguments };

export interface WorkflowFiles {
  commands: CustomCommand[];
  skills: Skill[];
  warnings: string[];
}

export function loadWorkflowFiles(opts: {
  cwd: string;
  home: string;
  config: Pick<Config, "compat">;
  env?: NodeJS.ProcessEnv;
}): WorkflowFiles {
  const roots = {
    cwd: opts.cwd,
    home: opts.home,
    userHome: (opts.env ?? process.env).HOME,
    compat: opts.config.compat,
  };
  const commands = findCustomCommands(roots);
  // The prompt's skills index reports broken skills already; here they are just left out.
  const { skills } = findSkills(roots);
  return { commands: commands.commands, skills, warnings: commands.warnings };
}

/** `/skill:<name> args`: the skill's body, labelled with its folder (its files are relative to it). */
export function skillPrompt(skill: Skill, args: string): string {
  const parsed = splitFrontMatter(readFileSync(skill.path, "utf8").replace(/\r\n?/g, "\n"));
  const body = expandArguments(parsed.body.trim(), args);
  return `# Skill: ${skill.name} (from ${skill.path})\nBase folder of this skill: ${dirname(skill.path)}\n\n${body}`;
}

const tokens = (chars: number) => Math.ceil(chars / 4);

export interface WorkflowSource {
  kind: "instructions" | "command" | "skill" | "servers";
  /** The command's or skill's name; the file for the others. */
  name: string;
  path: string;
  tokens: number;
  note?: string;
}

/**
 * Every instruction file, command, skill and server source a session in this workspace reads,
 * with token estimates (chars / 4), and the notices reading them gave (`tern config check`).
 */
export function workflowSources(opts: {
  cwd: string;
  home: string;
  config: Config;
  env?: NodeJS.ProcessEnv;
}): { sources: WorkflowSource[]; warnings: string[] } {
  const env = opts.env ?? process.env;
  const prompt = assembleSystemPromptParts({
    cwd: opts.cwd,
    home: opts.home,
    toolNames: [],
    userHome: env.HOME,
    compat: opts.config.compat,
  });
  const files = loadWorkflowFiles(opts);
  const servers = projectServers(opts.home, opts.cwd, opts.config);
  const sources: WorkflowSource[] = [
    ...prompt.instructions.files.map((f) => ({
      kind: "instructions" as const,
      name: f.path,
      path: f.path,
      tokens: tokens(f.text.length),
    })),
    ...files.commands.map((c) => ({
      kind: "command" as const,
      name: c.name,
      path: c.path,
      tokens: tokens(c.body.length),
    })),
    ...prompt.skills.map((s) => ({
      kind: "skill" as const,
      name: s.name,
      path: s.path,
      tokens: tokens(`- ${s.name}: ${s.description} (${s.path})`.length),
    })),
  ];
  for (const server of servers.servers)
    sources.push({
      kind: "servers",
      name: server.name,
      path: servers.file ?? "",
      tokens: 0,
      note: server.started ? "started" : `not started: ${server.why}`,
    });
  // The servers' notices are the configuration's (each server's line says why it did not start).
  return { sources, warnings: [...prompt.warnings, ...files.warnings] };
}
