// Names of MCP tools (R-EXT, R-TOOL-2): what the model sees (`<set>__<tool>`, at most 64
// characters, unique) and what a permission rule may call them (`<set>__<tool>`, Claude-style
// `mcp__<set>__<tool>`, `mcp__<set>` for the whole server), with argument patterns.
import { createRequire } from "node:module";
import { mcpArgsMatch as jsonArgsMatch } from "../policy/rules.js";
import { globToRegExp } from "../../config/wildcard.js";

/** Providers accept tool names matching ^[a-zA-Z0-9_-]{1,64}$. */
export const MAX_TOOL_NAME = 64;
const HASH_LEN = 8;

/** What an MCP tool is, for approval: its set, its own name and whether it says it only reads. */
export interface McpToolInfo {
  set: string;
  tool: string;
  /** The server's `readOnlyHint` annotation: such a tool runs without asking in `auto-edit`. */
  readOnly: boolean;
}

// Required when a name needs a hash, not imported: a static import loads OpenSSL (~1.7 MB) into
// every run, and most runs have no MCP tool whose name had to change.
let crypto: typeof import("node:crypto") | undefined;

function shortHash(text: string): string {
  crypto ??= createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
  return crypto.createHash("sha256").update(text).digest("hex").slice(0, HASH_LEN);
}

/**
 * The model-facing name. A name that had to be changed (characters replaced, cut to 64) ends in a
 * hash of the server's own name, so two tools that only differ after the cut stay distinct and
 * keep the same names whatever order the server lists them in. `taken` holds names already used.
 */
export function exposedToolName(set: string, tool: string, taken: ReadonlySet<string>): string {
  const clean = `${set}__${tool.replace(/[^A-Za-z0-9_-]/g, "_")}`;
  const changed = clean !== `${set}__${tool}`;
  if (!changed && clean.length <= MAX_TOOL_NAME && !taken.has(clean)) return clean;
  const suffix = `_${shortHash(tool)}`;
  let name = `${clean.slice(0, MAX_TOOL_NAME - suffix.length)}${suffix}`;
  for (let n = 2; taken.has(name); n++) {
    const more = `${suffix}${n}`;
    name = `${clean.slice(0, MAX_TOOL_NAME - more.length)}${more}`;
  }
  return name;
}

/** Every name a rule may use for this tool. */
export function mcpRuleAliases(exposed: string, info: McpToolInfo): string[] {
  const own = `${info.set}__${info.tool}`;
  return [exposed, own, `mcp__${own}`, `mcp__${exposed}`, `mcp__${info.set}`];
}

/** The string values of the arguments (nested too), at most 200, so a huge call stays cheap to judge. */
function stringLeaves(value: unknown, out: string[] = [], depth = 0): string[] {
  if (out.length >= 200 || depth > 8) return out;
  if (typeof value === "string") out.push(value);
  else if (typeof value === "number" || typeof value === "boolean") out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) stringLeaves(v, out, depth + 1);
  else if (value && typeof value === "object")
    for (const v of Object.values(value)) stringLeaves(v, out, depth + 1);
  return out;
}

/**
 * An argument pattern: `*` is every call; `key=glob` matches that argument's value; a plain glob
 * matches the argument values (a deny rule when any value matches, an allow rule only when every
 * value does, so an allow rule never covers a call because of one harmless argument).
 */
export function mcpArgsMatch(pattern: string, args: unknown, which: "allow" | "deny"): boolean {
  if (pattern === "*") return true;
  const keyed = /^([A-Za-z0-9_.-]+)=(.*)$/s.exec(pattern);
  if (keyed) {
    const value = (args as Record<string, unknown> | null)?.[keyed[1]];
    const leaves = stringLeaves(value);
    const re = globToRegExp(keyed[2]);
    return (
      leaves.length > 0 &&
      (which === "deny" ? leaves.some((v) => re.test(v)) : leaves.every((v) => re.test(v)))
    );
  }
  const re = globToRegExp(pattern);
  const leaves = stringLeaves(args);
  return (
    leaves.length > 0 && (which === "deny" ? leaves.some((v) => re.test(v)) : leaves.every((v) => re.test(v)))
  );
}

/** Whether a rule (`tool` part and optional pattern) covers this MCP call. */
export function mcpRuleMatches(
  ruleTool: string,
  pattern: string | null,
  exposed: string,
  info: McpToolInfo,
  args: unknown,
  which: "allow" | "deny",
): boolean {
  const re = globToRegExp(ruleTool);
  if (!mcpRuleAliases(exposed, info).some((n) => re.test(n))) return false;
  if (pattern === null) return true;
  // An allow pattern's `*` would cross `..` out of the folder it names (`path=src/*` and
  // `src/../../etc/passwd`): a path climbing out is never covered by a pattern.
  if (which === "allow" && stringLeaves(args).some((v) => /(^|[/\\])\.\.([/\\]|$)/.test(v))) return false;
  // rules.ts also reads a pattern as a glob over the arguments' compact JSON; either reading counts.
  return mcpArgsMatch(pattern, args, which) || jsonArgsMatch(pattern, args, which);
}
