// Where hooks come from (R-HOOK-1): tern's config layers (an untrusted workspace's were dropped
// with a warning when the config loaded), and with `compat.claude` (default on) Claude Code's
// `~/.claude/settings.json` and, in a trusted workspace only, its `.claude/settings.json` and
// `.claude/settings.local.json`. A broken file is one notice naming it, never a failed session.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Config, HookGroupConfig } from "../config/types.js";
import { type ConfiguredHook, DEFAULT_HOOK_TIMEOUT_SECONDS, isHookEvent } from "./events.js";
import { matcherError } from "./match.js";

export interface HookSourceOptions {
  config: Config;
  /** The config's sources: `hooks.<Event>[i]` names the file of each group. */
  sources: Record<string, string>;
  cwd: string;
  env: NodeJS.ProcessEnv;
  workspaceTrusted: boolean;
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
  if (!opts.claude) return { hooks, notices };
  const home = opts.env.HOME;
  if (home) fromClaudeFile(join(home, ".claude", "settings.json"), hooks, notices);
  const project = [
    join(opts.cwd, ".claude", "settings.json"),
    join(opts.cwd, ".claude", "settings.local.json"),
  ];
  for (const file of project) {
    if (opts.workspaceTrusted) fromClaudeFile(file, hooks, notices);
    else if (claudeHooksIn(file, notices) !== undefined)
      notices.push(`${file}: hooks not run: this workspace is not in trustedWorkspaces`);
  }
  return { hooks, notices };
}

function add(
  hooks: ConfiguredHook[],
  notices: string[],
  event: string,
  group: HookGroupConfig,
  source: string,
  toolNames: "claude" | "tern" = "claude",
) {
  if (!isHookEvent(event)) return;
  const matcher = group.matcher ?? "";
  const bad = matcherError(matcher);
  if (bad) {
    notices.push(
      `${source}: hooks.${event}: matcher ${JSON.stringify(matcher)} ${bad}; its hooks are skipped`,
    );
    return;
  }
  for (const entry of group.hooks)
    hooks.push({
      event,
      matcher,
      command: entry.command,
      timeoutSeconds: entry.timeout ?? DEFAULT_HOOK_TIMEOUT_SECONDS,
      source,
      toolNames,
    });
}

function fromClaudeFile(file: string, hooks: ConfiguredHook[], notices: string[]): void {
  const value = claudeHooksIn(file, notices);
  if (value === undefined) return;
  for (const [event, groups] of Object.entries(value)) {
    if (!isHookEvent(event)) {
      notices.push(`${file}: hooks.${event}: not an event tern runs; skipped`);
      continue;
    }
    const shaped = Array.isArray(groups) ? groups.filter(isGroup) : [];
    if (!Array.isArray(groups) || shaped.length !== groups.length)
      notices.push(
        `${file}: hooks.${event}: expected [{"matcher": …, "hooks": [{"type": "command", "command": …}]}]`,
      );
    for (const group of shaped) add(hooks, notices, event, group, file);
  }
}

/** The `hooks` object of a Claude Code settings file; undefined when there is none (or it is unreadable). */
function claudeHooksIn(file: string, notices: string[]): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR")
      notices.push(`${file}: cannot be read (${code}); its hooks are skipped`);
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    notices.push(`${file}: not JSON (${(err as Error).message}); its hooks are skipped`);
    return undefined;
  }
  const hooks = (json as { hooks?: unknown })?.hooks;
  if (hooks === undefined) return undefined;
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) {
    notices.push(`${file}: hooks: expected an object of events; skipped`);
    return undefined;
  }
  return hooks as Record<string, unknown>;
}

function isGroup(value: unknown): value is HookGroupConfig {
  if (typeof value !== "object" || value === null) return false;
  const group = value as { matcher?: unknown; hooks?: unknown };
  if (group.matcher !== undefined && typeof group.matcher !== "string") return false;
  return (
    Array.isArray(group.hooks) &&
    group.hooks.every(
      (h) =>
        typeof h === "object" &&
        h !== null &&
        (h as { type?: unknown }).type === "command" &&
        typeof (h as { command?: unknown }).command === "string" &&
        ((h as { timeout?: unknown }).timeout === undefined ||
          typeof (h as { timeout?: unknown }).timeout === "number"),
    )
  );
}
