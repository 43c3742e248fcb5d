// A call's presentation (types.ts `CallPresentation`): the tool's own `present`, or for a tool
// without one (MCP, an unknown name) its arguments as `key=value`, the most telling first.
import { argumentsObject, type ToolCall } from "../vocab/messages.js";
import type { PendingCall } from "./batch-types.js";
import type { CallKind, CallPresentation, Tool, ToolKind } from "./types.js";

/** A field as text: strings as they are, anything else as JSON, absent as "". */
export const text = (v: unknown): string =>
  typeof v === "string" ? v : v === undefined ? "" : JSON.stringify(v);

/** `[{ path, line }]` when `path` is a string, else none. */
export function located(path: unknown, line?: unknown): CallPresentation["locations"] {
  if (typeof path !== "string" || path === "") return [];
  return [typeof line === "number" ? { path, line } : { path }];
}

const KIND_OF: Record<ToolKind, CallKind> = {
  read: "read",
  edit: "edit",
  shell: "execute",
  fetch: "fetch",
  mcp: "other",
};

export function presentCall(tool: Tool | undefined, rawArguments: string): CallPresentation {
  const kind = tool ? KIND_OF[tool.kind] : "other";
  const args = argumentsObject(rawArguments);
  if (!args) return { title: "(arguments are not valid JSON)", kind, locations: [] };
  if (tool?.present) {
    try {
      return tool.present(args);
    } catch {
      // A presenter that trips over odd arguments must not lose the call: the default shows it.
    }
  }
  const title = Object.entries(args)
    .sort(([, a], [, b]) => Number(typeof b === "string") - Number(typeof a === "string"))
    .map(([k, v]) => `${k}=${text(v)}`)
    .join(" ");
  return { title, kind, locations: located(args.path ?? args.file_path) };
}

/** A call that asks, as the person deciding sees it (before the policy adds its reason). */
export function pendingCall(call: ToolCall, tool: Tool, args: unknown, paths: string[]): PendingCall {
  const presentation = presentCall(tool, call.arguments);
  return {
    call,
    id: call.id,
    name: tool.name,
    arguments: call.arguments,
    args,
    kind: tool.kind,
    paths,
    presentation,
  };
}
