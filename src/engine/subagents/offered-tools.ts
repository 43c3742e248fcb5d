// The tools a session offers when sub-agents are about (R-AGENT-1/2): a child keeps only its
// agent's tools (a `task` call it may not make is refused with why), and the `task` tool's
// description lists the agents a call may name, each with its description.
import type { AgentDefinition } from "../../agents/definition.js";
import { offeredInMode } from "../../tools/policy/mode-offer.js";
import type { ToolRegistry } from "../../tools/registry.js";
import { TASK_TOOL, type ChildOptions } from "./child-options.js";

export function offerTools(
  registry: ToolRegistry,
  agents: readonly AgentDefinition[],
  child?: ChildOptions,
): void {
  if (child)
    for (const name of registry.names())
      if (!child.tools.includes(name)) {
        if (name === TASK_TOOL && child.taskRefusal) registry.withhold(name, child.taskRefusal);
        else if (child.planning && !offeredInMode("plan", registry.get(name)!))
          registry.withhold(name, planning(name));
        else registry.unregister(name);
      }
  const task = registry.get(TASK_TOOL);
  if (!task) return;
  // A description's own closing full stop is dropped, so the list reads "a: …; b: …."
  const list = agents.map((a) => `${a.name}: ${(a.description || "(no description)").replace(/\.$/, "")}`);
  registry.setDescription(TASK_TOOL, `${task.description} Agents (default general): ${list.join("; ")}.`);
}

/**
 * A planning parent does not offer what plan mode refuses, so its child's list lacks those tools
 * too; a call naming one still gets plan mode's answer (tools/policy/plan-mode.ts), not "unknown".
 */
function planning(name: string): string {
  return `${name} is not run: this session is planning (plan mode), so nothing may change the workspace or leave this machine. Keep investigating with read-only tools.`;
}
