// docs/claude-tool-names.md, made from the one table (claude-tools.ts) so the page cannot drift from
// what hooks, matchers, agent files and permission rules really do (test/config/claude-tools-doc.test.ts).
import { CLAUDE_TOOLS } from "./claude-tools.js";

const code = (s: string) => `\`${s}\``;

export function claudeToolNamesDoc(): string {
  const rows = CLAUDE_TOOLS.map((t) => {
    const input = Object.entries(t.input)
      .map(([claude, tern]) => (tern === null ? `${code(claude)} (none)` : `${code(claude)} ← ${code(tern)}`))
      .join(", ");
    const response = t.response.length > 0 ? t.response.map(code).join(", ") : "—";
    const shown = t.presented ? "payload, matcher, rule" : "matcher, rule";
    return `| ${code(t.claude)} | ${t.tern.map(code).join(", ")} | ${input} | ${response} | ${shown} | ${t.note ?? ""} |`;
  });
  return `# Claude Code's tool names in tern

Generated from \`src/config/claude-tools.ts\` by \`TERN_UPDATE_DOCS=1 npx vitest run test/config/claude-tools-doc.test.ts\`;
do not edit by hand.

Hooks (R-HOOK-2) get every tool call under Claude Code's tool name with Claude's argument names
(paths absolute, as Claude Code sends them) and, after the call, a \`tool_response\` in Claude's
shape. A \`updatedInput\` a hook returns in that shape is mapped back to tern's arguments and judged
again. A matcher, an agent file's \`tools\` and a Claude permission rule may use either name. A
tern config may set \`"hookToolNames": "tern"\` so that its own hooks get tern's names and
arguments instead (Claude Code's settings files always get Claude's).

MCP tools: tern calls them \`<server>__<tool>\`; hooks see \`mcp__<server>__<tool>\`, and the
MCP result's content blocks as \`tool_response\`. A tern tool with no Claude Code counterpart
(\`job_input\`, \`recall\`) keeps its tern name and arguments.

| Claude Code | tern | \`tool_input\` (Claude ← tern) | \`tool_response\` | used in | note |
|---|---|---|---|---|---|
${rows.join("\n")}
`;
}
