// Which hooks an event runs (R-HOOK-1): a matcher is a regular expression over the tool name (or,
// for SessionStart and PreCompact, the source or trigger), "" or "*" or none matching everything.
// Tools answer to tern's names and to Claude Code's for the same tools, so a `"Bash"` or
// `"Edit|Write"` matcher written for Claude Code fires on tern's `bash`, `edit_file`, `write_file`,
// and `mcp__github__.*` on the MCP tool tern calls `github__create_issue`.

import { CLAUDE_TOOL_NAMES as CLAUDE_NAMES, claudeMcpName } from "../config/claude-tools.js";

/** Every name a tern tool answers to: its own and Claude Code's (`mcp__<server>__<tool>` for an MCP tool). */
export function namesOf(tool: string): string[] {
  const names = [tool];
  for (const [claude, tern] of Object.entries(CLAUDE_NAMES)) if (tern.includes(tool)) names.push(claude);
  const mcp = claudeMcpName(tool);
  if (mcp && !names.some((n) => n !== tool)) names.push(mcp);
  return names;
}

/** Simple names (`Bash`, `Edit|Write`) match exactly; anything else is a regular expression. */
export function matcherMatches(
  matcher: string,
  value: string,
  aliases: readonly string[] = [value],
): boolean {
  if (matcher === "" || matcher === "*") return true;
  if (/^[\w|]+$/.test(matcher)) {
    const wanted = matcher.split("|");
    return aliases.some((name) => wanted.includes(name));
  }
  let re: RegExp;
  try {
    re = new RegExp(matcher);
  } catch {
    return false;
  }
  return aliases.some((name) => re.test(name));
}

/** Whether a matcher is usable: an invalid regular expression would never match, so it is a config error. */
export function matcherError(matcher: string): string | undefined {
  if (matcher === "" || matcher === "*" || /^[\w|]+$/.test(matcher)) return undefined;
  try {
    new RegExp(matcher);
    return undefined;
  } catch (err) {
    return `not a valid regular expression (${(err as Error).message})`;
  }
}
