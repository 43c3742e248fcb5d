// Whether a deny rule refuses reading a file (R-WF-5, R-WF-4): an `@path` attachment is a read, so
// a `read_file(…)` deny rule — Claude Code's `Read(./.env)` maps to one — keeps the file out of
// the prompt as it keeps it from the read tool. Paths match as tools/policy/rules.ts matches them:
// picomatch on the workspace-relative path, or the absolute one (symlinks resolved too).
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { relative, sep } from "node:path";
import { readRule } from "./rule-syntax.js";

let picomatch: typeof import("picomatch") | undefined;

/** The deny rule that refuses reading `abs`, or undefined. */
export function readDeniedBy(deny: readonly string[], abs: string, cwd: string): string | undefined {
  const rules = deny.flatMap((text) => {
    const rule = readRule(text);
    return "error" in rule || (rule.tool !== "read_file" && rule.tool !== "*") ? [] : [rule];
  });
  if (rules.length === 0) return undefined;
  picomatch ??= createRequire(import.meta.url)("picomatch") as typeof import("picomatch");
  const real = realOr(abs);
  const realCwd = realOr(cwd);
  for (const rule of rules) {
    if (rule.pattern === null) return rule.text;
    const glob =
      rule.pattern === "~" || rule.pattern.startsWith("~/")
        ? (process.env.HOME ?? "~") + rule.pattern.slice(1)
        : rule.pattern;
    const isMatch = picomatch(glob, { dot: true });
    const candidates = [
      abs,
      real,
      relative(cwd, abs).split(sep).join("/"),
      relative(realCwd, real).split(sep).join("/"),
    ];
    if (candidates.some((c) => isMatch(c))) return rule.text;
  }
  return undefined;
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
