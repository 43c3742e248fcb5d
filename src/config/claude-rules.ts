// One Claude Code permission rule → tern's rules (R-WF-5), as Claude Code's permissions page
// documents them (code.claude.com/docs/en/permissions, "Permission rule syntax"):
// - `Bash(npm run test:*)`: the legacy prefix form, `npm run test` alone or followed by more words;
//   `Bash(git diff *)`: a single trailing ` *` is optional too; anything else is tern's own glob.
// - `Read(p)` covers every tool that reads files (read_file, grep, glob); `Edit(p)` every tool
//   that edits (edit_file, edit_lineno, write_file); `Write(p)` write_file.
// - Paths follow the gitignore-style anchoring: `//p` is the absolute `/p`, `~/p` the home
//   folder's, `/p` is relative to the folder holding the settings file's `.claude`, `./p` and a
//   `p` with a slash inside relative to the workspace, a `p` with no slash matches at any depth.
// - `WebFetch(domain:x)` → `web_fetch(x)`; `mcp__s`, `mcp__s__t` as they are; `Task(agent)` →
//   `task(agent)` (the sub-agent's name).
import { isAbsolute, join, relative } from "node:path";
import { CLAUDE_TOOL_NAMES } from "./claude-tools.js";
import { describeRuleError } from "./rule-syntax.js";

export type ClaudeRuleMapping = { rules: string[] } | { problem: string };

export interface ClaudeRuleContext {
  /** The workspace, which `./p` and `p` are relative to. */
  cwd: string;
  /** The folder holding the settings file's `.claude` (the workspace, or the home folder). */
  root: string;
  home: string | undefined;
}

const READ_TOOLS = ["read_file", "grep", "glob"];
const EDIT_TOOLS = ["edit_file", "edit_lineno", "write_file"];

export function mapClaudeRule(text: string, ctx: ClaudeRuleContext): ClaudeRuleMapping {
  const m = /^([A-Za-z0-9_-]+)(?:\((.*)\))?$/s.exec(text.trim());
  if (!m) return { problem: "not a Claude Code rule (Tool or Tool(specifier))" };
  const [, tool, spec] = m;
  const pattern = spec === undefined || spec.trim() === "" || spec.trim() === "*" ? null : spec.trim();
  if (tool.startsWith("mcp__"))
    return pattern === null ? valid([tool]) : { problem: "an MCP rule takes no (…)" };
  const tools =
    tool === "Read" ? READ_TOOLS : tool === "Edit" ? EDIT_TOOLS : (CLAUDE_TOOL_NAMES[tool] ?? null);
  if (tools === null) return { problem: `tern has no tool like Claude Code's ${tool}` };
  if (pattern === null) return valid(unique(tools));
  switch (tool) {
    case "Bash":
      return valid(bashPatterns(pattern).map((p) => `bash(${p})`));
    case "WebFetch":
      return pattern.startsWith("domain:")
        ? valid([`web_fetch(${pattern.slice("domain:".length)})`])
        : { problem: "WebFetch rules name a domain: WebFetch(domain:example.com)" };
    case "Task":
      return valid([`task(${pattern})`]);
    case "Read":
    case "Edit":
    case "Write":
    case "MultiEdit":
    case "Glob":
    case "Grep":
    case "LS": {
      const path = pathPattern(pattern, ctx);
      if ("problem" in path) return path;
      return valid(unique(tools).flatMap((t) => path.globs.map((g) => `${t}(${g})`)));
    }
    default:
      return { problem: `tern cannot match ${tool}(…) by its argument` };
  }
}

function valid(rules: string[]): ClaudeRuleMapping {
  const bad = rules.find((r) => describeRuleError(r) !== null);
  return bad ? { problem: describeRuleError(bad)! } : { rules };
}

const unique = (xs: readonly string[]) => [...new Set(xs)];

/** `npm run test:*` and `git diff *`: the words alone, or followed by more. */
function bashPatterns(pattern: string): string[] {
  const prefix = pattern.endsWith(":*")
    ? pattern.slice(0, -2)
    : pattern.endsWith(" *")
      ? pattern.slice(0, -2)
      : null;
  if (prefix !== null && !prefix.includes("*") && prefix.trim() !== "")
    return [prefix.trim(), `${prefix.trim()} *`];
  return [pattern];
}

/** Claude's gitignore-style path → tern's globs (workspace-relative, or absolute outside it). */
function pathPattern(spec: string, ctx: ClaudeRuleContext): { globs: string[] } | { problem: string } {
  const p = spec.endsWith("/") ? `${spec}**` : spec;
  if (p.startsWith("//")) return { globs: [inWorkspace(p.slice(1), ctx.cwd)] };
  if (p === "~" || p.startsWith("~/")) {
    if (!ctx.home) return { problem: "~ names no home folder here (HOME is not set)" };
    return { globs: [inWorkspace(join(ctx.home, p.slice(1)), ctx.cwd)] };
  }
  if (p.startsWith("/")) return { globs: [inWorkspace(join(ctx.root, p), ctx.cwd)] };
  if (p.startsWith("./")) return { globs: [p.slice(2)] };
  // gitignore: a pattern with no slash (but a trailing one) matches in any folder.
  if (!spec.replace(/\/$/, "").includes("/")) return { globs: [p, `**/${p}`] };
  return { globs: [p] };
}

/** An absolute glob inside the workspace becomes workspace-relative (tern's rules match either). */
function inWorkspace(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel) ? rel : abs;
}
