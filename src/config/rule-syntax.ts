// The syntax of a permission rule (R-TOOL-2): `tool` or `tool(pattern)`. It lives with the
// config so a bad rule in any layer or flag is a configuration error (R-CFG-1) before anything
// starts; the tools' matcher (tools/policy/rules.ts) reads rules with the same function.

export interface RuleSyntax {
  text: string;
  /** Tool name; `*` matches any run of characters (e.g. `myset__*`, `mcp__fs__*`). */
  tool: string;
  /** `null` = the bare tool: every call of it. */
  pattern: string | null;
}

const RULE_RE = /^([A-Za-z0-9_.*-]+)(?:\((.*)\))?$/s;

/** The rule, or why the text is not one (for the one-line configuration error). */
export function readRule(text: string): RuleSyntax | { error: string } {
  const trimmed = text.trim();
  if (trimmed === "") return { error: "empty rule" };
  const m = RULE_RE.exec(trimmed);
  if (!m) {
    const open = trimmed.indexOf("(");
    if (open >= 0 && !trimmed.endsWith(")")) return { error: "missing ) at the end" };
    return { error: "expected tool or tool(pattern), e.g. bash(git status*) or write_file(src/**)" };
  }
  const pattern = m[2] === undefined ? null : m[2].trim();
  if (pattern === "") return { error: "empty pattern (); write the bare tool name to cover every call" };
  if (pattern !== null && /[\u0000-\u0008\u000e-\u001f]/.test(pattern))
    return { error: "control characters in the pattern" };
  return { text: trimmed, tool: m[1], pattern };
}

export function describeRuleError(text: string): string | null {
  const r = readRule(text);
  return "error" in r ? `invalid rule ${JSON.stringify(text)}: ${r.error}` : null;
}
