// A permission rule naming an MCP tool set that no `toolSets` entry defines can never match:
// usually a typo or a set that was renamed, and a deny rule that silently does nothing is a
// guard that is not there. `tern config check` (and every start) warns about it.
import type { PermissionsConfig, ToolSetConfig } from "./types.js";

/** The tool set a rule's tool name points at (`fs__x`, `mcp__fs__x`, `mcp__fs`), or null for a built-in. */
export function ruleToolSet(rule: string): string | null {
  const tool = rule.trim().replace(/\(.*$/s, "");
  const rest = tool.startsWith("mcp__") ? tool.slice("mcp__".length) : tool.includes("__") ? tool : null;
  if (rest === null) return null;
  const set = rest.split("__")[0];
  return set === "" || set.includes("*") ? null : set;
}

export function unknownToolSetWarnings(permissions: PermissionsConfig, toolSets: ToolSetConfig[]): string[] {
  const known = new Set(toolSets.map((s) => s.name));
  const warnings: string[] = [];
  for (const which of ["allow", "deny"] as const) {
    for (const rule of permissions[which]) {
      const set = ruleToolSet(rule);
      if (set !== null && !known.has(set))
        warnings.push(
          `permissions.${which} rule ${JSON.stringify(rule)} names tool set '${set}', which no toolSets entry defines: it matches nothing`,
        );
    }
  }
  return warnings;
}
