// A tool call as Claude Code's hooks see it (R-HOOK-2 amended): its Claude name, Claude's argument
// names (`file_path` absolute, as Claude Code sends it), Claude's `tool_response`, and the way back
// for a hook's `updatedInput`. The names come from the one table in config/claude-tools.ts.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type ClaudeTool, claudeMcpName, claudeToolFor } from "../config/claude-tools.js";

type Args = Record<string, unknown>;

/** Claude fields holding a path: Claude Code sends them absolute. */
const PATH_FIELDS = new Set(["file_path", "path"]);

export interface ClaudeCall {
  name: string;
  input: unknown;
}

const isArgs = (v: unknown): v is Args => typeof v === "object" && v !== null && !Array.isArray(v);

/** tern's call → Claude's `tool_name` and `tool_input`; a tool Claude has no name for keeps tern's. */
export function toClaudeCall(tool: string, args: unknown, cwd: string): ClaudeCall {
  const row = claudeToolFor(tool);
  if (!row) return { name: claudeMcpName(tool) ?? tool, input: args };
  if (!isArgs(args)) return { name: row.claude, input: args };
  const input: Args = {};
  const mapped = new Set<string>();
  for (const [claude, tern] of Object.entries(row.input)) {
    if (tern === null || args[tern] === undefined) continue;
    mapped.add(tern);
    const value = args[tern];
    input[claude] = PATH_FIELDS.has(claude) && typeof value === "string" ? resolve(cwd, value) : value;
  }
  special(row, tool, args, input, cwd);
  if (tool === "edit_lineno") mapped.add("new_text");
  // tern's own arguments with no Claude field ride along under their own names.
  for (const [key, value] of Object.entries(args))
    if (!mapped.has(key) && !(key in input)) input[key] = value;
  return { name: row.claude, input };
}

function special(row: ClaudeTool, tool: string, args: Args, input: Args, cwd: string): void {
  if (row.claude === "WebFetch") input.prompt ??= "";
  if (row.claude === "TodoWrite" && Array.isArray(args.todos))
    input.todos = args.todos.map((t) => (isArgs(t) ? { ...t, activeForm: t.content } : t));
  if (tool === "edit_lineno" && typeof args.path === "string") {
    input.old_string = linesOf(resolve(cwd, args.path), args.start_line, args.end_line);
    input.new_string = args.new_text;
  }
}

/** The text edit_lineno replaces, so a hook reading `old_string` sees what goes. */
function linesOf(file: string, start: unknown, end: unknown): string {
  if (typeof start !== "number" || typeof end !== "number") return "";
  try {
    return readFileSync(file, "utf8")
      .split("\n")
      .slice(start - 1, end)
      .join("\n");
  } catch {
    return "";
  }
}

/** A hook's `updatedInput` in Claude's shape → tern's arguments (tern's own extras kept from `original`). */
export function fromClaudeInput(tool: string, updated: Args, original: unknown): Args {
  const row = claudeToolFor(tool);
  if (!row) return updated;
  // Laid over the call's own arguments: a hook that returns only the field it changed changes only that.
  const out: Args = isArgs(original) ? { ...original } : {};
  const claudeFields = new Set(Object.keys(row.input));
  for (const [key, value] of Object.entries(updated)) {
    const tern = row.input[key];
    if (tern) out[tern] = value;
    // A tern argument name the hook wrote itself (`start_line`, or `path` on tern's own side) counts too.
    else if (!claudeFields.has(key)) out[key] = value;
  }
  if (tool === "edit_lineno") {
    if (updated.new_string !== undefined) out.new_text = updated.new_string;
    delete out.old_string;
    delete out.new_string;
    delete out.replace_all;
  }
  if (row.claude === "TodoWrite" && Array.isArray(out.todos))
    out.todos = out.todos.map((t) => (isArgs(t) ? { content: t.content, status: t.status } : t));
  return out;
}

/** tern's result → Claude's `tool_response` for the tool (the SDK's output types, Write as the hooks reference shows it). */
export function toClaudeResponse(
  tool: string,
  claudeInput: unknown,
  result: { outcome: string; text: string },
): unknown {
  const row = claudeToolFor(tool);
  const input = isArgs(claudeInput) ? claudeInput : {};
  const ok = result.outcome === "ok";
  const text = result.text;
  const lines = text === "" ? 0 : text.split("\n").length;
  switch (row?.claude) {
    case "Bash":
      return { stdout: text, stderr: "", interrupted: result.outcome === "interrupted", isImage: false };
    case "Read":
      return {
        type: "text",
        file: { filePath: input.file_path, content: text, numLines: lines, startLine: input.offset ?? 1 },
      };
    case "Write":
      return { filePath: input.file_path, content: input.content, success: ok };
    case "Edit":
      return {
        filePath: input.file_path,
        oldString: input.old_string,
        newString: input.new_string,
        replaceAll: input.replace_all ?? false,
        success: ok,
      };
    case "Glob": {
      const matches = ok ? text.split("\n").filter((l) => l !== "") : [];
      return { matches, count: matches.length, search_path: input.path ?? "" };
    }
    case "Grep":
      return { mode: "content", content: text, numLines: lines };
    case "WebFetch":
      return { response: text, url: input.url };
    case "Task":
      return { result: text };
    case "TodoWrite":
      return { message: text, newTodos: input.todos };
    case "ExitPlanMode":
      return { message: text, approved: ok };
    case "BashOutput":
      return { output: text, status: ok ? "completed" : "failed" };
    case "KillShell":
      return { message: text, shell_id: input.shell_id };
    default:
      // An MCP tool: the content blocks, as Claude Code hands an MCP result to its hooks.
      return [{ type: "text", text }];
  }
}
