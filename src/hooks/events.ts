// The hook events (R-HOOK-1), as Claude Code names them, and which of them a matcher applies to.

export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "Notification",
] as const;

export type HookEvent = (typeof HOOK_EVENTS)[number];

export function isHookEvent(name: string): name is HookEvent {
  return (HOOK_EVENTS as readonly string[]).includes(name);
}

/** One `{"type": "command", …}` entry. */
export interface HookCommand {
  command: string;
  /** Seconds; default 60. */
  timeout?: number;
}

/** `{"matcher": "…", "hooks": [...]}`: a matcher over tool names (PreToolUse, PostToolUse) or the event's source. */
export interface HookGroup {
  matcher?: string;
  hooks: HookCommand[];
}

export type HooksConfig = Partial<Record<HookEvent, HookGroup[]>>;

/** A hook ready to run: its event, matcher, command, and the file it came from. */
export interface ConfiguredHook {
  event: HookEvent;
  matcher: string;
  command: string;
  timeoutSeconds: number;
  source: string;
  /** Which names its payloads give tools: Claude Code's (the default) or tern's (`"hookToolNames": "tern"`). */
  toolNames?: "claude" | "tern";
  /** Added to its environment: a plugin's hooks get CLAUDE_PLUGIN_ROOT (R-WF-6). */
  env?: Record<string, string>;
}

export const DEFAULT_HOOK_TIMEOUT_SECONDS = 60;
