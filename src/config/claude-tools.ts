// Claude Code's tool names and argument names beside tern's tools of the same job: the one table
// (R-HOOK-2 amended) that hook payloads, hook matchers, agent files' `tools` and Claude permission
// rules all read, so what was written for Claude Code names tern's tools unchanged.
// docs/claude-tool-names.md is generated from it (scripts/claude-tool-names-doc.ts; a test checks).
//
// Shapes follow Claude Code's hooks reference (code.claude.com/docs/en/hooks, "PreToolUse input")
// and the Agent SDK's tool input/output types (code.claude.com/docs/en/agent-sdk/typescript,
// "Tool Input Types" / "Tool Output Types").

export interface ClaudeTool {
  /** Claude Code's name. */
  claude: string;
  /** tern's tools that do its job; the first is the one a hook payload names it for. */
  tern: readonly string[];
  /** Claude's input fields → tern's argument (null: tern has no such argument; dropped on the way back). */
  input: Readonly<Record<string, string | null>>;
  /** The `tool_response` fields a PostToolUse hook gets. */
  response: readonly string[];
  /** Whether a hook payload ever names a call this way (false: a name matchers and rules accept). */
  presented: boolean;
  note?: string;
}

export const CLAUDE_TOOLS: readonly ClaudeTool[] = [
  {
    claude: "Bash",
    tern: ["bash"],
    input: { command: "command", description: null, timeout: null, run_in_background: "run_in_background" },
    response: ["stdout", "stderr", "interrupted", "isImage"],
    presented: true,
    note: "tern's own timer is `bashTimeoutSeconds`; a hook's `timeout` is not applied",
  },
  {
    claude: "Read",
    tern: ["read_file"],
    input: { file_path: "path", offset: "offset", limit: "limit" },
    response: ["type", "file.filePath", "file.content", "file.numLines", "file.startLine"],
    presented: true,
  },
  {
    claude: "Write",
    tern: ["write_file", "apply_patch"],
    input: { file_path: "path", content: "content" },
    response: ["filePath", "content", "success"],
    presented: true,
  },
  {
    claude: "Edit",
    tern: ["edit_file", "edit_lineno", "apply_patch"],
    input: {
      file_path: "path",
      old_string: "old_string",
      new_string: "new_string",
      replace_all: "replace_all",
    },
    response: ["filePath", "oldString", "newString", "replaceAll", "success"],
    presented: true,
    note: "edit_lineno is shown as Edit: `old_string` is the lines it replaces, `new_string` its `new_text`; `start_line`/`end_line` ride along",
  },
  {
    claude: "MultiEdit",
    tern: ["edit_file", "edit_lineno", "apply_patch"],
    input: { file_path: "path", edits: null },
    response: [],
    presented: false,
    note: "tern edits one place per call: a `MultiEdit` matcher or rule covers its edits, shown as Edit",
  },
  {
    claude: "Glob",
    tern: ["glob"],
    input: { pattern: "pattern", path: "path" },
    response: ["matches", "count", "search_path"],
    presented: true,
  },
  {
    claude: "LS",
    tern: ["glob"],
    input: { path: "path" },
    response: [],
    presented: false,
    note: "older Claude Code's folder listing: a matcher and rule name for glob",
  },
  {
    claude: "Grep",
    tern: ["grep"],
    input: { pattern: "pattern", path: "path", glob: "glob", output_mode: null, "-i": null, "-n": null },
    response: ["mode", "content", "numLines"],
    presented: true,
    note: 'tern always answers in `output_mode: "content"` with line numbers; other Grep options are dropped',
  },
  {
    claude: "WebFetch",
    tern: ["web_fetch"],
    input: { url: "url", prompt: null },
    response: ["response", "url"],
    presented: true,
    note: "tern returns the page itself; `prompt` is sent empty",
  },
  {
    claude: "Task",
    tern: ["task"],
    input: { description: "description", prompt: "prompt", subagent_type: "agent" },
    response: ["result"],
    presented: true,
  },
  {
    claude: "TodoWrite",
    tern: ["todo_write"],
    input: { todos: "todos" },
    response: ["message", "newTodos"],
    presented: true,
    note: "each todo's `activeForm` is its `content`",
  },
  {
    claude: "ExitPlanMode",
    tern: ["exit_plan"],
    input: { plan: "plan" },
    response: ["message", "approved"],
    presented: true,
  },
  {
    claude: "BashOutput",
    tern: ["job_output"],
    input: { bash_id: "id", filter: null },
    response: ["output", "status"],
    presented: true,
  },
  {
    claude: "KillShell",
    tern: ["job_kill"],
    input: { shell_id: "id" },
    response: ["message", "shell_id"],
    presented: true,
  },
  {
    claude: "LSP",
    tern: ["lsp"],
    input: { operation: "operation", filePath: "path", line: "line", character: "character" },
    response: [],
    presented: true,
    note: "Claude Code's code-intelligence tool; tern's `lsp` (R-LSP-3)",
  },
];

/** Claude Code's tool names → tern's (matchers, agent files, permission rules). */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  CLAUDE_TOOLS.map((t) => [t.claude, t.tern]),
);

/** The row a hook payload presents tern's `tool` as; undefined for a tool Claude Code has no name for. */
export function claudeToolFor(tool: string): ClaudeTool | undefined {
  return CLAUDE_TOOLS.find((t) => t.presented && t.tern.includes(tool));
}

/** tern names an MCP tool `<set>__<tool>`; Claude Code `mcp__<server>__<tool>`. */
export function claudeMcpName(tool: string): string | undefined {
  return tool.includes("__") && !tool.startsWith("mcp__") ? `mcp__${tool}` : undefined;
}
