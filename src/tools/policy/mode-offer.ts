// Which tools a permission mode's requests offer (R-PLAN-1): a tool the mode never runs costs
// bytes in every request and invites a call that can only be refused. Plan mode offers its
// read-only tools, bash (it runs in the read-only sandbox there) and exit_plan; edits, writes,
// web_fetch and the job tools — which plan-mode.ts refuses — are left out. The other modes leave
// out exit_plan, which only plan mode answers. MCP tools are offered as their servers list them
// (plan mode judges each call by its read-only hint). A call naming a tool left out still reaches
// the policy and gets its refusal. The list changes only when the mode does (tool-sync.ts).
import type { PermissionMode } from "../../config/types.js";
import type { Tool } from "../types.js";

const EXIT_PLAN = "exit_plan";

export function offeredInMode(mode: PermissionMode, tool: Pick<Tool, "name" | "kind">): boolean {
  if (tool.name === EXIT_PLAN) return mode === "plan";
  if (mode !== "plan" || tool.kind === "mcp") return true;
  return !tool.name.startsWith("job_") && (tool.kind === "read" || tool.kind === "shell");
}
