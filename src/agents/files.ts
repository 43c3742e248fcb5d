// Agent files (R-AGENT-2): `.tern/agents/*.md`, `$TERN_HOME/agents/*.md`, and with `compat.claude`
// `.claude/agents/*.md` and `~/.claude/agents/*.md`, in that precedence (project over user, tern's
// folders over Claude's; the first file naming an agent wins, built-ins last). Front matter as
// Claude Code's subagents have it: `name`, `description`, `tools` (a comma-separated string or a
// YAML list), `model` (`inherit` or absent: the parent's); the body is the child's system prompt.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { listField, splitFrontMatter, textField } from "../config/front-matter.js";
import { foreignWorkspaceFile } from "../config/workspace-reach.js";
import { workspaceTrusted } from "../config/workspace-trust.js";
import { readTextBounded, UnreadableFile } from "../prompt/bounded-read.js";
import { workflowRoots } from "../prompt/workflow-roots.js";
import { type AgentDefinition, type AgentSource, BUILTIN_AGENTS } from "./definition.js";
import { manifestPaths, type PluginRoot } from "../config/plugins.js";

export interface AgentRoots {
  cwd: string;
  /** TERN_HOME. */
  home: string;
  /** The person's home folder (HOME), for `~/.claude/agents`. */
  userHome?: string;
  compat: { claude: boolean };
  /** The person's `trustedWorkspaces`: an untrusted workspace's agent leading outside it is not read (§10). */
  trustedWorkspaces?: readonly string[];
  /** Claude Code plugins (R-WF-6): their `agents/` (and manifest `agents`), named `<plugin>:<agent>`. */
  plugins?: readonly PluginRoot[];
}

/** An agent file is read whole up to this; past it the file is refused with a problem. */
const MAX_AGENT_BYTES = 256 * 1024;
const NAME = /^[a-z0-9][a-z0-9_-]*$/;
/** Claude Code's model aliases: which provider they mean is Claude Code's business; tern keeps the parent's. */
const INHERIT = new Set(["inherit", "sonnet", "opus", "haiku"]);

export function agentRoots(opts: AgentRoots): { dir: string; source: AgentSource }[] {
  return workflowRoots(opts, "agents").map(({ dir, scope, claude }) => ({
    dir,
    source: claude ? (`claude-${scope}` as const) : scope,
  }));
}

function markdownIn(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(".md"))
      .sort();
  } catch {
    return [];
  }
}

/** One file as an agent, or the one line saying why it is not one. */
export function readAgentFile(path: string, source: AgentSource): AgentDefinition | string {
  let read: ReturnType<typeof readTextBounded>;
  try {
    read = readTextBounded(path, MAX_AGENT_BYTES + 1);
  } catch (e) {
    if (e instanceof UnreadableFile) return `${path}: ${e.message}; agent skipped`;
    throw e;
  }
  if (!read) return `${path}: cannot read it; agent skipped`;
  if (read.size > MAX_AGENT_BYTES)
    return `${path}: ${Math.round(read.size / 1024)} KB is over the ${MAX_AGENT_BYTES / 1024} KB an agent file may hold; agent skipped`;
  const parsed = splitFrontMatter(read.text.replace(/\r\n?/g, "\n"));
  if (!parsed.ok) return `${path}: ${parsed.error}; agent skipped`;
  const stem = path.replace(/^.*[/\\]/, "").slice(0, -3);
  const name = textField(parsed.data, "name") || stem;
  if (!NAME.test(name))
    return `${path}: name: '${name}' is not an agent name (lower-case letters, digits, '-', '_'); agent skipped`;
  const agent: AgentDefinition = {
    name,
    description: textField(parsed.data, "description"),
    prompt: parsed.body.trim(),
    path,
    source,
    problems: [],
  };
  if (!agent.description)
    agent.problems.push(`${path}: description: missing (the parent model picks agents by it)`);
  if (parsed.data.tools !== undefined) agent.tools = listField(parsed.data, "tools");
  const isolation = textField(parsed.data, "isolation");
  if (isolation === "worktree") agent.isolation = "worktree";
  else if (isolation)
    agent.problems.push(`${path}: isolation: '${isolation}' is not known (only 'worktree')`);
  const model = textField(parsed.data, "model");
  if (model && !INHERIT.has(model)) agent.model = model;
  return agent;
}

/** Every agent, the first folder naming one winning, built-ins last; one line per file that is no agent. */
export function findAgents(opts: AgentRoots): { agents: AgentDefinition[]; warnings: string[] } {
  const agents: AgentDefinition[] = [];
  const warnings: string[] = [];
  const taken = new Set<string>();
  const trusted = workspaceTrusted(opts.cwd, opts.trustedWorkspaces ?? []);
  for (const root of agentRoots(opts))
    for (const file of markdownIn(root.dir)) {
      const path = join(root.dir, file);
      const project = root.source === "project" || root.source === "claude-project";
      const foreign = project
        ? foreignWorkspaceFile(path, { roots: [opts.cwd], home: opts.home, trusted })
        : undefined;
      if (foreign) {
        warnings.push(foreign);
        continue;
      }
      const read = readAgentFile(path, root.source);
      if (typeof read === "string") warnings.push(read);
      else if (!taken.has(read.name)) {
        taken.add(read.name);
        agents.push(read);
      }
    }
  for (const plugin of opts.plugins ?? [])
    for (const dir of [join(plugin.root, "agents"), ...manifestPaths(plugin, "agents")])
      for (const file of markdownIn(dir)) {
        const read = readAgentFile(join(dir, file), "plugin");
        if (typeof read === "string") warnings.push(read);
        else agents.push({ ...read, name: `${plugin.name}:${read.name}` });
      }
  for (const builtin of BUILTIN_AGENTS) if (!taken.has(builtin.name)) agents.push(builtin);
  return { agents, warnings };
}
