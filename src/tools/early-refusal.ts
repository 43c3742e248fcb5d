// R-UI-19: a call its tool will refuse anyway (an edit of a file not read this turn) gets that
// refusal where a person would be asked, so no one approves what cannot run. A rule's denial
// (plan mode, a deny rule) still comes first: it says more about why.
import { resolvePath } from "./paths.js";
import type { Tool, ToolContext, ToolResult } from "./types.js";

interface PlannedCall {
  tool?: Tool;
  args?: unknown;
  result?: ToolResult;
  paths: string[];
}

/**
 * The tool's early refusal of each call that has one, to give instead of asking a person. Not
 * when an earlier call of the batch names the same file: it may be the read that makes the edit
 * possible.
 */
export function earlyRefusals<P extends PlannedCall>(
  planned: P[],
  ctx: Pick<ToolContext, "cwd" | "readTracker">,
): Map<P, ToolResult> {
  const named = new Set<string>();
  const refused = new Map<P, ToolResult>();
  for (const p of planned) {
    const files = p.paths.map((path) => resolvePath(ctx.cwd, path));
    const refusal = !p.result && !files.some((f) => named.has(f)) ? p.tool?.refuseEarly?.(p.args, ctx) : null;
    if (refusal) refused.set(p, { outcome: "error", content: [{ type: "text", text: refusal }] });
    for (const f of files) named.add(f);
  }
  return refused;
}
