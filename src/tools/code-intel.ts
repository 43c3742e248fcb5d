// The language servers around file calls (R-LSP-1/-2): a read starts the file's server (so the
// first edit after it finds the server warm), a successful edit gets the edited files'
// diagnostics appended to its result. Every built-in edit tool (`kind: "edit"`, its files from
// `paths`) is wrapped so by the built-in registry; a tool that edits files it cannot name in
// `paths` calls `appendDiagnostics` itself.
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

/**
 * A built-in tool with the language servers around it: `read_file` starts its file's server after
 * an ok read, an edit tool's ok result gets its files' diagnostics. Other tools are returned as
 * they are.
 */
export function withLanguageServers<T extends Tool>(tool: T): T {
  if (tool.name !== "read_file" && tool.kind !== "edit") return tool;
  const run: Tool["run"] = async (args, ctx) => {
    const result = await tool.run(args, ctx);
    if (!ctx.codeIntel) return result;
    const paths = tool.paths(args, ctx.cwd).map((p) => resolvePath(ctx.cwd, p));
    if (tool.kind === "edit") return appendDiagnostics(result, paths, ctx);
    if (result.outcome === "ok") for (const path of paths) ctx.codeIntel.touched(path);
    return result;
  };
  // Its own copy of the tool's properties, getters kept as getters (its schema stays lazy).
  const wrapped = Object.defineProperties({}, Object.getOwnPropertyDescriptors(tool)) as T;
  wrapped.run = run;
  return wrapped;
}
