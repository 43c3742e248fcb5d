// What a sub-agent is (R-AGENT-2): a name the `task` tool's `agent` argument picks, a description
// the parent model reads, the tools its child session gets, the model it runs on, and the body
// of its file, which the child's system prompt adds. `explore` is built in.

/** Where an agent came from: tern's own folders, Claude Code's (with `compat.claude`), or built in. */
export type AgentSource = "project" | "user" | "claude-project" | "claude-user" | "plugin" | "builtin";

export interface AgentDefinition {
  name: string;
  description: string;
  /**
   * The file's `tools` entries as written (tern's or Claude Code's names, or rules), resolved
   * against the parent's tools when the agent runs (tool-names.ts); undefined = every tool the
   * parent has but `task` (R-AGENT-1's default).
   */
  tools?: string[];
  /** `<provider>/<model>`; undefined = the parent's model (Claude Code's `inherit`). */
  model?: string;
  /** The child's system prompt addition (the file's body). */
  prompt: string;
  /** `worktree` (Claude Code's key): the child works in its own git worktree (R-WT-2). */
  isolation?: "worktree";
  /** The permission mode the child runs in at most (never above the parent's). */
  mode?: "plan";
  /** The file; absent for a built-in agent. */
  path?: string;
  source: AgentSource;
  /** What is wrong with the file, one line each naming file and key: using the agent returns them. */
  problems: string[];
}

/** The agent a `task` call without `agent` runs: every tool of the parent but `task`. */
export const GENERAL_AGENT = "general";

/**
 * Built in: `explore`, read-only. It runs in plan mode, so the read-only rules of plan mode
 * (tools/policy/plan-mode.ts) hold whatever its tool list says: edits refused, bash only inside
 * the read-only sandbox.
 */
export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: GENERAL_AGENT,
    description: "All your tools but task.",
    prompt: "",
    source: "builtin",
    problems: [],
  },
  {
    name: "explore",
    description: "Read-only: searches the workspace and reports.",
    tools: ["read_file", "grep", "glob", "lsp", "bash"],
    prompt:
      "You are an explore agent: investigate the workspace with read-only tools and answer with " +
      "what you found (files, lines, facts). You cannot change anything.",
    mode: "plan",
    source: "builtin",
    problems: [],
  },
];
