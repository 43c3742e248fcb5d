// `tern config check` (R-WF-5, R-WF-6): every Claude Code settings file tern read, key by key, with
// what was taken and what was not (and why), and each Claude Code plugin loaded. Keys tern has no
// use for (`model`, `env`, `apiKeyHelper`, …) are named as not taken, never skipped in silence.
import { readFileSync } from "node:fs";
import { claudeSettingsFiles } from "./claude-permissions.js";
import type { ClaudeSettingsReport } from "./claude-permissions.js";
import type { LoadedConfig } from "./load.js";

const UNTRUSTED = "not used: this workspace is not in trustedWorkspaces";

function keysOf(file: string): string[] | undefined {
  try {
    const json = JSON.parse(readFileSync(file, "utf8"));
    return typeof json === "object" && json !== null && !Array.isArray(json) ? Object.keys(json) : undefined;
  } catch {
    return undefined;
  }
}

export function claudeCompatLines(loaded: LoadedConfig, cwd: string, userHome: string | undefined): string[] {
  const lines: string[] = [];
  if (loaded.config.compat.claude) {
    const reports = new Map<string, ClaudeSettingsReport>(
      (loaded.claudeSettings ?? []).map((r) => [r.file, r]),
    );
    for (const { file, project } of claudeSettingsFiles(cwd, userHome)) {
      const keys = keysOf(file);
      if (!keys) continue;
      const trusted = !project || loaded.workspaceTrusted === true;
      lines.push(`claude settings: ${file}`);
      for (const key of keys) lines.push(...keyLines(key, file, trusted, loaded, reports.get(file)));
    }
  }
  for (const plugin of loaded.config.pluginRoots ?? [])
    lines.push(`claude plugin: ${plugin.name}  (${plugin.root})  [${plugin.source}]`);
  return lines;
}

function keyLines(
  key: string,
  file: string,
  trusted: boolean,
  loaded: LoadedConfig,
  report: ClaudeSettingsReport | undefined,
): string[] {
  switch (key) {
    case "permissions":
      return (report?.rules ?? [])
        .map((r) =>
          r.tern.length > 0
            ? `  permissions.${r.list} ${JSON.stringify(r.rule)} → ${r.tern.join(", ")}`
            : `  permissions.${r.list} ${JSON.stringify(r.rule)} not taken: ${r.skipped}`,
        )
        .concat((report?.notes ?? []).map((n) => `  permissions.${n}`));
    case "hooks":
      return [`  hooks: ${trusted ? "taken (tern hooks test and the hook: lines show them)" : UNTRUSTED}`];
    case "statusLine": {
      const source = loaded.sources["statusLine.command"];
      if (source === file) return ["  statusLine: taken"];
      return [
        `  statusLine: ${!trusted ? UNTRUSTED : `not used: ${source ?? "another file"} sets the status line`}`,
      ];
    }
    case "enabledPlugins":
      return ["  enabledPlugins: taken (a plugin switched off here is not loaded)"];
    default:
      return [`  ${key}: not taken: tern has no such setting`];
  }
}
