// Claude Code's tool names and tern's tools of the same job, so what was written for Claude Code
// (a hook's matcher, an agent file's `tools`) names tern's tools unchanged.

/** Claude Code's tool names → tern's. */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
  Bash: ["bash"],
  Read: ["read_file"],
  Write: ["write_file"],
  Edit: ["edit_file", "edit_lineno"],
  MultiEdit: ["edit_file", "edit_lineno"],
  Grep: ["grep"],
  Glob: ["glob"],
  LS: ["glob"],
  WebFetch: ["web_fetch"],
  TodoWrite: ["todo_write"],
  Task: ["task"],
  LSP: ["lsp"],
};
