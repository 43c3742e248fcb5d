// The hooks of one session (R-HOOK-1..4): which run for an event, side by side, identical commands
// once; each run reported (a `hook` record line and `--json` event); what they said combined.
import { redactSecrets } from "../config/secrets.js";
import type { ShellSandbox } from "../tools/types.js";
import type { ConfiguredHook, HookEvent } from "./events.js";
import { matcherMatches } from "./match.js";
import { runHookProcess } from "./process.js";
import { combine, type HookOutcome, interpret } from "./protocol.js";

export interface HookRunReport {
  event: HookEvent;
  command: string;
  exit: number | null;
  decision: string;
  durationMs: number;
  /** A non-blocking error or a hook's systemMessage, for the person. */
  message?: string;
}

export interface HookRunnerOptions {
  hooks: readonly ConfiguredHook[];
  /** The workspace: hooks run there, and it is TERN_PROJECT_DIR / CLAUDE_PROJECT_DIR. */
  cwd: string;
  /** The scrubbed tool environment (R-CFG-3). */
  env: NodeJS.ProcessEnv;
  sessionId: string;
  transcriptPath: string;
  permissionMode(): string;
  sandbox?: ShellSandbox;
  onRun?(report: HookRunReport): void;
}

/**
 * A tool event's fields as a hook with `"hookToolNames": "tern"` sees them, and the way back from
 * a Claude-shaped `updatedInput` to tern's arguments (the default payload is Claude Code's).
 */
export interface TernShape {
  fields: Record<string, unknown>;
  fromClaude(updated: Record<string, unknown>): Record<string, unknown>;
}

/** What to match an event's hooks against: a tool name (with its other names) or a source. */
export interface HookMatch {
  value: string;
  aliases?: readonly string[];
}

const NO_OUTCOME: HookOutcome = { context: [], messages: [] };

/** tern's permission modes as Claude Code names them in `permission_mode`. */
const CLAUDE_MODES: Record<string, string> = {
  ask: "default",
  "auto-edit": "acceptEdits",
  plan: "plan",
  yolo: "bypassPermissions",
};

export class HookRunner {
  /** Aborted when the session ends: hooks still running then (a SessionStart's) are stopped. */
  private ending = new AbortController();

  constructor(private readonly opts: HookRunnerOptions) {}

  /** Stops every hook still running (its group killed, its pipes closed): the session ends (§10: no process outlives it). */
  stopRunning(): void {
    this.ending.abort();
    this.ending = new AbortController();
  }

  /** The distinct commands that `event` runs for `match`. */
  commandsFor(event: HookEvent, match?: HookMatch): ConfiguredHook[] {
    const seen = new Set<string>();
    return this.opts.hooks.filter((hook) => {
      if (hook.event !== event) return false;
      if (match && !matcherMatches(hook.matcher, match.value, match.aliases ?? [match.value])) return false;
      if (seen.has(hook.command)) return false;
      seen.add(hook.command);
      return true;
    });
  }

  async run(
    event: HookEvent,
    fields: Record<string, unknown>,
    opts: { match?: HookMatch; signal?: AbortSignal; tern?: TernShape } = {},
  ): Promise<HookOutcome> {
    const hooks = this.commandsFor(event, opts.match);
    if (hooks.length === 0) return NO_OUTCOME;
    const mode = this.opts.permissionMode();
    const payload = (own: Record<string, unknown>, permissionMode: string) =>
      JSON.stringify({
        session_id: this.opts.sessionId,
        transcript_path: this.opts.transcriptPath,
        cwd: this.opts.cwd,
        permission_mode: permissionMode,
        hook_event_name: event,
        ...own,
      });
    // Claude Code's names for the mode too (R-HOOK-2 amended); tern's for a "tern" config's hooks.
    const claudeInput = payload(fields, CLAUDE_MODES[mode] ?? mode);
    const ternInput = payload(opts.tern?.fields ?? fields, mode);
    const env = { ...this.opts.env, TERN_PROJECT_DIR: this.opts.cwd, CLAUDE_PROJECT_DIR: this.opts.cwd };
    const verdicts = await Promise.all(
      hooks.map(async (hook) => {
        const started = performance.now();
        const result = await runHookProcess({
          command: hook.command,
          cwd: this.opts.cwd,
          env: hook.env ? { ...env, ...hook.env } : env,
          input: hook.toolNames === "tern" ? ternInput : claudeInput,
          timeoutSeconds: hook.timeoutSeconds,
          signal: eitherAborts(opts.signal, this.ending.signal),
          sandbox: this.opts.sandbox,
        });
        const verdict = interpret(event, redacted(result), hook.timeoutSeconds);
        if (verdict.updatedInput && opts.tern && hook.toolNames !== "tern")
          verdict.updatedInput = opts.tern.fromClaude(verdict.updatedInput);
        this.opts.onRun?.({
          event,
          command: hook.command,
          exit: result.exit,
          decision: verdict.label,
          durationMs: Math.round(performance.now() - started),
          ...(verdict.message ? { message: verdict.message } : {}),
        });
        return verdict;
      }),
    );
    return combine(verdicts);
  }
}

/** A signal that aborts when either does (AbortSignal.any is not in every Node 20). */
function eitherAborts(a: AbortSignal | undefined, b: AbortSignal): AbortSignal {
  if (!a) return b;
  const both = new AbortController();
  for (const s of [a, b]) {
    if (s.aborted) both.abort();
    else s.addEventListener("abort", () => both.abort(), { once: true });
  }
  return both.signal;
}

/** A hook's output reaches the model and the screen: keys in it are redacted like a tool result's. */
function redacted<T extends { stdout: string; stderr: string }>(result: T): T {
  return { ...result, stdout: redactSecrets(result.stdout), stderr: redactSecrets(result.stderr) };
}
