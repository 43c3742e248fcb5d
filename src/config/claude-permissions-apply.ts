// Claude Code's mapped permissions joined to the merged config (R-WF-5): deny, ask and allow
// rules added to tern's lists, each list's source naming the Claude file too; Claude's
// `defaultMode` only where no tern config or flag chose a mode (tern's own files win).
import type { ClaudePermissions, ClaudeSettingsReport } from "./claude-permissions.js";
import type { Config } from "./types.js";

export function applyClaudePermissions(
  config: Config,
  sources: Map<string, string>,
  claude: ClaudePermissions,
  warnings: string[],
): ClaudeSettingsReport[] {
  warnings.push(...claude.warnings);
  const filesOf = (list: "allow" | "deny" | "ask") =>
    claude.reports
      .filter((r) => r.rules.some((x) => x.list === list && x.tern.length > 0))
      .map((r) => r.file);
  for (const list of ["allow", "deny", "ask"] as const) {
    if (claude[list].length === 0) continue;
    const current = config.permissions[list] ?? [];
    config.permissions[list] = [...new Set([...current, ...claude[list]])];
    const key = `permissions.${list}`;
    const prev = current.length > 0 ? sources.get(key) : undefined;
    sources.set(key, [prev, ...filesOf(list)].filter(Boolean).join(" + "));
  }
  if (claude.mode && (sources.get("permissions.mode") ?? "default") === "default") {
    config.permissions.mode = claude.mode.mode;
    sources.set("permissions.mode", claude.mode.file);
  }
  return claude.reports;
}
