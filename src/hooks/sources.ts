// Where hooks come from (R-HOOK-1): tern's config layers (an untrusted workspace's were dropped
// with a warning when the config loaded), and with `compat.claude` (default on) Claude Code's
// `~/.claude/settings.json` and, in a trusted workspace only, its `.claude/settings.json` and
// `.claude/settings.local.json`. A broken file is one notice naming it, never a failed session.
import { join } from "node:path";
import type { Config } from "../config/types.js";
import type { ConfiguredHook } from "./events.js";
import { add, claudeHooksIn, fromClaudeFile } from "./claude-file.js";
import { pluginHooks } from "./plugin-hooks.js";
import { workspaceFileTrust } from "../config/workspace-trust.js";

export interface HookSourceOptions {
  config: Config;
  /** The config's sources: `hooks.<Event>[i]` names the file of each group. */
  sources: Record<string, string>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** `compat.claude`: read Claude Code's settings files too. */
  claude: boolean;
}

export interface CollectedHooks {
  hooks: ConfiguredHook[];
  notices: string[];
}

export function collectHooks(opts: HookSourceOptions): CollectedHooks {
  const hooks: ConfiguredHook[] = [];
  const notices: string[] = [];
  // R-HOOK-2 (amended): a tern config may keep tern's tool names for its own hooks.
  const toolNames = opts.config.hookToolNames === "tern" ? "tern" : "claude";
  for (const [event, groups] of Object.entries(opts.config.hooks ?? {}))
    for (const [i, group] of groups.entries())
      add(hooks, notices, event, group, opts.sources[`hooks.${event}[${i}]`] ?? "config", toolNames);
  // R-WF-6: a plugin's hooks (loaded by the person's choice, so they run like their own).
  hooks.push(...pluginHooks(opts.config.pluginRoots ?? [], notices));
  if (!opts.claude) return { hooks, notices };
  const home = opts.env.HOME;
  if (home) fromClaudeFile(join(home, ".claude", "settings.json"), hooks, notices);
  const project = [
    join(opts.cwd, ".claude", "settings.json"),
    join(opts.cwd, ".claude", "settings.local.json"),
  ];
  for (const file of project) {
    const trust = workspaceFileTrust({
      kind: "hooks",
      file,
      scope: "project",
      cwd: opts.cwd,
      trustedWorkspaces: opts.config.trustedWorkspaces,
    });
    if (trust.trusted) fromClaudeFile(file, hooks, notices);
    else if (claudeHooksIn(file, notices) !== undefined) notices.push(trust.notice!);
  }
  return { hooks, notices };
}
