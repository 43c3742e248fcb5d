// R-UI-23 with `compat.claude`: Claude Code's `statusLine` setting, read where Claude Code reads
// it when tern's own config sets none: `.claude/settings.local.json`, then
// `.claude/settings.json` of the workspace (only a trusted one: the command is the repository's
// own program, run about once a second), then `~/.claude/settings.json`. A file that is not
// JSON, or a statusLine of the wrong shape, is one warning naming the file.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { StatusLineConfig } from "./types.js";
import { workspaceFileTrust } from "./workspace-trust.js";

/** The `statusLine` a settings file sets: the value, "none", or "bad" (a warning was added). */
function statusLineIn(file: string, warnings: string[]): StatusLineConfig | "none" | "bad" {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    // A missing or unreadable file sets nothing; the hook reader already reports unreadable ones.
    return "none";
  }
  let value: unknown;
  try {
    value = (JSON.parse(text) as { statusLine?: unknown } | null)?.statusLine;
  } catch {
    return "none";
  }
  if (value === undefined) return "none";
  const v = value as { type?: unknown; command?: unknown; padding?: unknown };
  const padding = v.padding;
  if (
    typeof value !== "object" ||
    value === null ||
    v.type !== "command" ||
    typeof v.command !== "string" ||
    !v.command.trim() ||
    (padding !== undefined && !(Number.isInteger(padding) && (padding as number) >= 0))
  ) {
    warnings.push(`${file}: statusLine: expected {"type": "command", "command": "…", "padding": N}; ignored`);
    return "bad";
  }
  return {
    type: "command",
    command: v.command,
    ...(padding !== undefined ? { padding: padding as number } : {}),
  };
}

export function claudeStatusLine(
  env: NodeJS.ProcessEnv,
  cwd: string,
  trustedWorkspaces: readonly string[],
  warnings: string[],
): { statusLine: StatusLineConfig; file: string } | undefined {
  for (const name of ["settings.local.json", "settings.json"]) {
    const file = join(cwd, ".claude", name);
    const trust = workspaceFileTrust({ kind: "status line", file, scope: "project", cwd, trustedWorkspaces });
    const found = statusLineIn(file, trust.trusted ? warnings : []);
    if (found === "none" || found === "bad") continue;
    if (trust.trusted) return { statusLine: found, file };
    warnings.push(trust.notice!);
  }
  if (!env.HOME) return undefined;
  const file = join(env.HOME, ".claude", "settings.json");
  const found = statusLineIn(file, warnings);
  return found === "none" || found === "bad" ? undefined : { statusLine: found, file };
}
