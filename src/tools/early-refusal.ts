// R-UI-19: a call its tool will refuse anyway (an edit of a file not read this turn) gets that
// refusal before hooks or a person are asked, so no one approves what cannot run.
import { resolvePath } from "./paths.js";
import type { Tool, ToolContext, ToolResult } from "./types.js";

interface PlannedCall {
  tool?: Tool;
  args?: unknown;
  result?: ToolResult;
  paths: string[];
}

/**
 * Sets the tool's early refusal as the result of each call that has one. Not when an earlier
 * call of the batch names the same file: it may be the read that makes the edit possible.
 */
export function refuseEarly(planned: PlannedCall[], ctx: Pick<ToolContext, "cwd" | "readTracker">): void {
  const named = new Set<string>();
  for (const p of planned) {
    const files = p.paths.map((path) => resolvePath(ctx.cwd, path));
    const refusal = !p.result && !files.some((f) => named.has(f)) ? p.tool?.refuseEarly?.(p.args, ctx) : null;
    if (refusal) p.result = { outcome: "error", content: [{ type: "text", text: refusal }] };
    for (const f of files) named.add(f);
  }
}
