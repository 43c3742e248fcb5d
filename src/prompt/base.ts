// The short base system prompt (SPEC §8). Kept small and free of anything that changes between
// rounds (no clock, no counters) so the prompt prefix stays cacheable.

export function basePrompt(cwd: string, toolNames: readonly string[]): string {
  const tools = [...new Set(toolNames)].sort();
  const has = (name: string) => tools.includes(name);
  const lines = [
    "You are tern, a coding agent working in a terminal on the user's project.",
    `Workspace: ${cwd}`,
    "",
    "How to work:",
    "- Use your tools to inspect files and run commands; never guess file contents, paths or command output.",
    "- Read a file before you edit it. Keep changes minimal and focused on the request, in the project's existing style.",
  ];
  if (has("apply_patch") && !has("edit_file")) {
    lines.push("- Change files with apply_patch; write whole files only when creating or rewriting them.");
  }
  if (has("edit_file")) {
    lines.push(
      "- Prefer edit_file for changes to existing files; write whole files only when creating or rewriting them.",
    );
  }
  lines.push(
    "- Relative paths are relative to the workspace. Do not touch files outside it unless asked.",
    "- Verify your work (tests, builds) when you can, and say what you could not verify.",
    "- Ask before destructive or irreversible actions. If the request is unclear, ask rather than assume.",
    "- When done, reply briefly: what changed and anything left to do.",
  );
  if (tools.length > 0) lines.push("", `Tools: ${tools.join(", ")}.`);
  return lines.join("\n");
}
