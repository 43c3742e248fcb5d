// What is wrong with an agent beyond its file's shape (R-AGENT-2): a model no configured provider
// serves. Each problem is one line naming the file and the key; the `task` tool returns them
// instead of running such an agent, and `tern config check` lists them. A tool tern lacks
// (Claude Code's `NotebookRead`, `WebSearch`) is no problem (R-WF-7): it is dropped with one
// notice naming the file and the tool, and the agent runs with the rest.
import { MODEL_ID_RE } from "../config/value-rules.js";
import type { AgentDefinition, AgentSource } from "./definition.js";
import { resolveToolEntries } from "./tool-names.js";

export interface AgentCheckContext {
  /** Every tool the parent session has (built-in and MCP). */
  toolNames: readonly string[];
  /** The configured providers' ids. */
  providers: readonly string[];
}

export function agentProblems(agent: AgentDefinition, ctx: AgentCheckContext): string[] {
  const where = agent.path ?? `agent ${agent.name}`;
  const problems = [...agent.problems];
  if (agent.model !== undefined) {
    const provider = agent.model.slice(0, agent.model.indexOf("/"));
    if (!MODEL_ID_RE.test(agent.model))
      problems.push(`${where}: model: '${agent.model}' is not "<provider>/<model>" (or inherit)`);
    else if (!ctx.providers.includes(provider))
      problems.push(
        `${where}: model: '${agent.model}' is not configured (provider '${provider}' is not in providers)`,
      );
  }
  return problems;
}

/** One notice per tool the agent names that tern lacks: it runs without them (R-WF-7). */
export function droppedTools(agent: AgentDefinition, ctx: Pick<AgentCheckContext, "toolNames">): string[] {
  if (!agent.tools) return [];
  const where = agent.path ?? `agent ${agent.name}`;
  return resolveToolEntries(agent.tools, ctx.toolNames).unknown.map(
    (name) => `${where}: tools: '${name}' dropped: tern has no such tool; the agent runs with the rest`,
  );
}

/** An agent as `/agents` and `tern config check` list it. */
export interface AgentSummary {
  name: string;
  description: string;
  source: AgentSource;
  path?: string;
  /** What keeps it from running (a model not configured). */
  problems: string[];
  /** Tools it names that tern lacks: dropped, it runs without them. */
  dropped: string[];
}

export function agentSummary(agent: AgentDefinition, ctx: AgentCheckContext): AgentSummary {
  return {
    name: agent.name,
    description: agent.description,
    source: agent.source,
    ...(agent.path ? { path: agent.path } : {}),
    problems: agentProblems(agent, ctx),
    dropped: droppedTools(agent, ctx),
  };
}
