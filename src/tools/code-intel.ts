// The language servers around file calls (R-LSP-1/-2): a read starts the file's server (so the
// first edit after it finds the server warm), a successful edit gets the edited files'
// diagnostics appended to its result. Every edit tool (`kind: "edit"`, its files from `paths`)
// gets this from the executor; a tool that edits files it cannot name in `paths` calls
// `appendDiagnostics` itself.
import { resolvePath } from "./paths.js";
import type { Tool, ToolContext, ToolResult } from "./types.js";

/** Appends the diagnostics of `paths` (absolute) to an ok result; any other result is returned as it is. */
export async function appendDiagnostics(
  result: ToolResult,
  paths: string[],
  ctx: ToolContext,
): Promise<ToolResult> {
  if (!ctx.codeIntel || result.outcome !== "ok" || paths.length === 0) return result;
  let text = "";
  try {
    text = await ctx.codeIntel.edited(paths);
  } catch {
    // Diagnostics are a help: a server failing never fails the edit.
  }
  return text ? { ...result, content: [...result.content, { type: "text", text: `\n\n${text}` }] } : result;
}

/** What the language servers add to a finished call: a started server for a read, diagnostics for an edit. */
export async function withLsp(
  call: { tool?: Tool; paths: string[] },
  result: ToolResult,
  ctx: ToolContext,
): Promise<ToolResult> {
  if (!ctx.codeIntel || !call.tool) return result;
  const paths = call.paths.map((p) => resolvePath(ctx.cwd, p));
  if (call.tool.name === "read_file" && result.outcome === "ok") {
    for (const path of paths) ctx.codeIntel.touched(path);
    return result;
  }
  return call.tool.kind === "edit" ? appendDiagnostics(result, paths, ctx) : result;
}
