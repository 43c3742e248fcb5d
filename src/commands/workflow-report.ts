// The workflow part of `/context` and `tern config check` (R-WF-1, R-UI-24): every instruction
// file, custom command, skill and server source read, with token estimates.
import type { WorkflowSource } from "../workspace/workflow.js";

const HEADS: Record<WorkflowSource["kind"], string> = {
  instructions: "instruction files",
  command: "custom commands",
  skill: "skills",
  servers: "project MCP servers",
};

export function workflowLines(
  sources: readonly WorkflowSource[],
  warnings: readonly string[] = [],
): string[] {
  const lines: string[] = [];
  for (const kind of Object.keys(HEADS) as WorkflowSource["kind"][]) {
    const of = sources.filter((s) => s.kind === kind);
    if (of.length === 0) {
      lines.push(`${HEADS[kind]}: none`);
      continue;
    }
    lines.push(`${HEADS[kind]}:`);
    for (const s of of) {
      const what = s.name === s.path ? s.path : `${s.name}  ${s.path}`;
      lines.push(`  ${what}${kind === "servers" ? `  ${s.note ?? ""}` : `  ~${s.tokens} tokens`}`);
    }
  }
  for (const w of warnings) lines.push(`notice: ${w}`);
  return lines;
}
