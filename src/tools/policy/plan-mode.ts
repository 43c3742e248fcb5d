// Plan mode (R-PLAN-1): the session reads and plans, nothing changes. Read-only tools run;
// edits, MCP tools their server does not mark read-only, web_fetch and background jobs are
// refused with a result that tells the model how to end planning; bash runs only inside the
// read-only OS sandbox (the executor's context supplies it), and asks where there is none.
// Deny rules are judged before this and still win; `/yolo once` does not lift planning.
import type { ApprovalCall, ApprovalVerdict } from "./approval-types.js";

/** The tool that ends planning (tools/builtin/exit-plan.ts); it runs in every mode. */
export const EXIT_PLAN_TOOL = "exit_plan";

const REFUSAL =
  "is not run: this session is planning (plan mode), so nothing may change the workspace or " +
  "leave this machine. Keep investigating with read-only tools, then call exit_plan with your " +
  "plan (markdown) for the user to approve.";

function refuse(what: string): ApprovalVerdict {
  return { decision: "deny", message: `${what} ${REFUSAL}` };
}

export function evaluatePlanning(call: ApprovalCall, sandboxAvailable: () => boolean): ApprovalVerdict {
  if (call.name === EXIT_PLAN_TOOL) return { decision: "allow" };
  // A job outlives its call and takes input: nothing the read-only sandbox could bound per call.
  if (call.name.startsWith("job_")) return refuse(call.name);
  switch (call.kind) {
    case "read":
      return { decision: "allow" };
    case "mcp":
      return call.mcp?.readOnly
        ? { decision: "allow" }
        : refuse(`${call.name} (an MCP tool not marked read-only)`);
    case "shell": {
      if ((call.args as { run_in_background?: unknown } | null)?.run_in_background === true)
        return refuse("bash with run_in_background");
      if (sandboxAvailable()) return { decision: "allow" };
      return { decision: "ask", reason: "plan mode, but no OS sandbox here keeps this command read-only" };
    }
    default:
      return refuse(call.name);
  }
}
