// Hooks in Claude Code's shape (R-HOOK-1): a settings file's `hooks` object read with one notice
// per problem, and each `{"matcher", "hooks": [{"type": "command", …}]}` group added as
// configured hooks naming their file. Shared by the settings files (sources.ts) and plugins.
import { readFileSync } from "node:fs";
import type { HookGroupConfig } from "../config/types.js";
import { type ConfiguredHook, DEFAULT_HOOK_TIMEOUT_SECONDS, isHookEvent } from "./events.js";
import { matcherError } from "./match.js";

export function add(
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

export function fromClaudeFile(file: string, hooks: ConfiguredHook[], notices: string[]): void {
  const value = claudeHooksIn(file, notices);
  if (value !== undefined) addClaudeHooks(value, file, hooks, notices);
}

/** Claude Code's `{"<Event>": [groups]}`, each group's hooks added with `file` as their source. */
export function addClaudeHooks(
  value: Record<string, unknown>,
  file: string,
  hooks: ConfiguredHook[],
  notices: string[],
): void {
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
export function claudeHooksIn(file: string, notices: string[]): Record<string, unknown> | undefined {
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
