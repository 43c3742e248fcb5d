// What a child session (R-AGENT-1) is opened with, worked out from its parent and its agent: the
// tools (the agent's list, else all but `task`, never one the parent lacks), the permission mode
// (never above the parent's: a planning parent gives planning children), the config (the child's
// own budget, `agents.executionBudget`) and the link its `session_start` records.
import type { LanguageServers } from "../language-servers.js";
import type { AgentDefinition } from "../../agents/definition.js";
import { resolveToolEntries } from "../../agents/tool-names.js";
import type { Config, PermissionMode } from "../../config/types.js";
import type { ForkParent } from "../../record/types.js";

/** The `task` tool's name (tools/builtin/task.ts). */
export const TASK_TOOL = "task";
/** A child's child is as deep as sub-agents go (R-AGENT-1: depth ≤ 2). */
export const MAX_DEPTH = 2;

/** How a session was started by a parent's `task` call; absent for a top-level session. */
export interface ChildOptions {
  /** What its `session_start.parent` says: parent session and turn, the agent, the call. */
  link: ForkParent;
  /** 1 for a child of a top-level session, 2 for a grandchild. */
  depth: number;
  /** The tools the child offers; every other one is withheld (with why, for `task`). */
  tools: string[];
  /** Why `task` is refused in this child, when it is. */
  taskRefusal?: string;
  /** Set for a planning child: the tools plan mode refuses are withheld saying so (mode-offer.ts). */
  planning?: boolean;
  /** The agent's system prompt addition. */
  system: string;
  /** The parent's language servers: the child's edits get diagnostics from the same servers. */
  languageServers?: LanguageServers;
}

/** Modes from the one that lets least run to the one that lets most. */
const MODE_ORDER: readonly PermissionMode[] = ["plan", "ask", "auto-edit", "yolo"];

export function childMode(parent: PermissionMode, agent: AgentDefinition): PermissionMode {
  if (!agent.mode) return parent;
  return MODE_ORDER.indexOf(agent.mode) < MODE_ORDER.indexOf(parent) ? agent.mode : parent;
}

/** The child's tools and, when it may not start children of its own, why `task` is refused. */
export function childTools(
  agent: AgentDefinition,
  parentTools: readonly string[],
  depth: number,
): { tools: string[]; taskRefusal?: string } {
  const listed = agent.tools
    ? resolveToolEntries(agent.tools, parentTools).tools
    : parentTools.filter((t) => t !== TASK_TOOL);
  const tools = listed.filter((t) => parentTools.includes(t));
  if (!tools.includes(TASK_TOOL))
    return {
      tools,
      taskRefusal: `task: refused: agent '${agent.name}' may not start sub-agents (its tools do not list task)`,
    };
  if (depth >= MAX_DEPTH)
    return {
      tools: tools.filter((t) => t !== TASK_TOOL),
      taskRefusal: `task: refused: sub-agents nest at most ${MAX_DEPTH} deep, and this one is ${depth} deep`,
    };
  return { tools };
}

/**
 * The parent's config as the child runs it: its own budget, at most the parent's mode, and only
 * the MCP tool sets whose tools it has (a child starts its own servers, so none it cannot use).
 */
export function childConfig(parent: Config, mode: PermissionMode, tools: readonly string[]): Config {
  return {
    ...parent,
    executionBudget: parent.agents.executionBudget,
    permissions: { ...parent.permissions, mode },
    toolSets: parent.toolSets.filter((set) => tools.some((t) => t.startsWith(`${set.name}__`))),
  };
}
