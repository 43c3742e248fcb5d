// The user's hooks wired to one session (loaded only when a session has hooks) (R-HOOK-1..4): each run is a `hook` record line and
// `--json` event, a hook's non-blocking error is a notice, and the points of the loop ask here —
// before and after a tool call, when a prompt arrives, when the model would stop, at the start and
// end of the session, before compaction, and when tern waits for the person.
import type { ConfiguredHook } from "../../hooks/events.js";
import { fromClaudeInput, toClaudeCall, toClaudeResponse } from "../../hooks/claude-payload.js";
import { namesOf } from "../../hooks/match.js";
import type { HookOutcome } from "../../hooks/protocol.js";
import { HookRunner } from "../../hooks/runner.js";
import { recordFile } from "../../record/store.js";
import type { ToolResult } from "../../tools/types.js";
import type { HookPoints, SessionCore } from "../core.js";
import { contentToText } from "../event-fields.js";

export class SessionHookPoints implements HookPoints {
  private readonly runner: HookRunner;
  /** SessionStart's context, waiting for the first prompt. */
  private startNotes: Promise<string[]> = Promise.resolve([]);
  /** Armed while the session is idle after a turn (Notification `idle_prompt`). */
  private idleTimer: NodeJS.Timeout | undefined;

  /**
   * `agent`: this session is a sub-agent's (R-AGENT-1), so its stop runs SubagentStop, matched
   * on the agent's name, instead of Stop.
   */
  constructor(
    private readonly core: SessionCore,
    hooks: readonly ConfiguredHook[],
    private readonly agent?: string,
  ) {
    this.runner = new HookRunner({
      hooks,
      cwd: core.cwd,
      env: core.toolEnv,
      sessionId: core.id,
      transcriptPath: recordFile(core.dir),
      permissionMode: () => core.policy.getMode(),
      sandbox: core.sandbox,
      onRun: (run) => {
        core.commit({
          type: "hook",
          event: run.event,
          command: run.command,
          exit: run.exit,
          decision: run.decision,
          durationMs: run.durationMs,
        });
        core.publish({
          type: "hook",
          event: run.event,
          command: run.command,
          exit_code: run.exit,
          decision: run.decision,
          duration_ms: run.durationMs,
        });
        if (run.message)
          core.publish({ type: "notice", text: `hook ${run.event} (${run.command}): ${run.message}` });
      },
    });
  }

  sessionStart(source: "startup" | "resume" | "clear" | "compact"): void {
    const notes = this.runner
      .run("SessionStart", { source }, { match: { value: source } })
      .then((o) => labelled("SessionStart", o));
    this.startNotes = Promise.all([this.startNotes, notes]).then(([a, b]) => [...a, ...b]);
  }

  /** Context the session's start hooks gave, once (the first prompt after them carries it). */
  async takeStartNotes(): Promise<string[]> {
    const notes = await this.startNotes;
    this.startNotes = Promise.resolve([]);
    return notes;
  }

  /** UserPromptSubmit: refused (with why), or the notes to add beside the prompt. */
  async promptSubmitted(
    prompt: string,
    signal?: AbortSignal,
  ): Promise<{ blocked?: string; notes: string[] }> {
    // A cancel (SIGTERM) ends the hooks' wait too, however they hold their pipes (§10).
    const outcome = await this.runner.run("UserPromptSubmit", { prompt }, { signal });
    const blocked = outcome.block ?? outcome.stop;
    return blocked !== undefined ? { blocked, notes: [] } : { notes: labelled("UserPromptSubmit", outcome) };
  }

  /** PreToolUse, for one call: what the hooks decided (undefined when none ran); `updatedInput` in tern's shape. */
  async beforeTool(
    id: string,
    name: string,
    args: unknown,
    signal: AbortSignal,
  ): Promise<HookOutcome | undefined> {
    if (this.runner.commandsFor("PreToolUse", toolMatch(name)).length === 0) return undefined;
    const claude = toClaudeCall(name, args, this.core.cwd);
    return this.runner.run(
      "PreToolUse",
      { tool_name: claude.name, tool_input: claude.input, tool_use_id: id },
      {
        match: toolMatch(name),
        signal,
        tern: {
          fields: { tool_name: name, tool_input: ternInput(args, this.core.cwd), tool_use_id: id },
          fromClaude: (updated) => fromClaudeInput(name, updated, args),
        },
      },
    );
  }

  /** PostToolUse: text the model is shown after the result (a block's reason, added context). */
  async afterTool(
    id: string,
    name: string,
    args: unknown,
    result: ToolResult,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    if (this.runner.commandsFor("PostToolUse", toolMatch(name)).length === 0) return undefined;
    const claude = toClaudeCall(name, args, this.core.cwd);
    const text = contentToText(result.content);
    const outcome = await this.runner.run(
      "PostToolUse",
      {
        tool_name: claude.name,
        tool_input: claude.input,
        tool_response: toClaudeResponse(name, claude.input, { outcome: result.outcome, text }),
        tool_use_id: id,
      },
      {
        match: toolMatch(name),
        signal,
        tern: {
          fields: {
            tool_name: name,
            tool_input: ternInput(args, this.core.cwd),
            tool_response: { outcome: result.outcome, content: text },
            tool_use_id: id,
          },
          fromClaude: (updated) => updated,
        },
      },
    );
    const parts = [
      ...(outcome.block !== undefined ? [`[hook PostToolUse] ${outcome.block}`] : []),
      ...labelled("PostToolUse", outcome),
    ];
    return parts.length > 0 ? parts.join("\n") : undefined;
  }

  /** Stop: the note that keeps the turn going, or undefined to let it stop. */
  async stopRequested(active: boolean): Promise<string | undefined> {
    const outcome = this.agent
      ? await this.runner.run("SubagentStop", subagentFields(this.core, this.agent, active), {
          match: { value: this.agent },
        })
      : await this.runner.run("Stop", { stop_hook_active: active });
    if (outcome.stop !== undefined) return undefined;
    return outcome.block;
  }

  preCompact(trigger: "manual" | "auto"): Promise<unknown> {
    return this.runner.run("PreCompact", { trigger, custom_instructions: "" }, { match: { value: trigger } });
  }

  /** Notification (matcher: the `notification_type`), never waited for: the person is being asked anyway. */
  notify(message: string, type: "permission_prompt" | "idle_prompt" | "limit_prompt"): void {
    void this.runner
      .run("Notification", { message, notification_type: type }, { match: { value: type } })
      .catch(() => undefined);
  }

  idle(): void {
    clearTimeout(this.idleTimer);
    if (this.core.fold.lastTurn === 0) return;
    // Each idle moment re-arms the timer, so one that fires finds the session idle since — unless
    // a turn runs right now.
    this.idleTimer = setTimeout(() => {
      if (!this.core.fold.openTurn) this.notify("tern is waiting for your input", "idle_prompt");
    }, this.core.settings.idleNotificationSeconds * 1000);
    // A session nobody uses any more must not stay alive for it.
    this.idleTimer.unref();
  }

  async sessionEnd(reason: string): Promise<void> {
    clearTimeout(this.idleTimer);
    this.runner.stopRunning();
    await this.runner.run("SessionEnd", { reason }).catch(() => undefined);
  }
}

/** Claude Code's SubagentStop fields: the child's id, agent type, transcript and last answer. */
function subagentFields(core: SessionCore, agent: string, active: boolean): Record<string, unknown> {
  const last = core.fold.archive.findLast((l) => l.type === "assistant_message");
  return {
    stop_hook_active: active,
    agent_id: core.id,
    agent_type: agent,
    agent_transcript_path: recordFile(core.dir),
    last_assistant_message: last?.type === "assistant_message" ? last.text : "",
  };
}

function toolMatch(name: string) {
  return { value: name, aliases: namesOf(name) };
}

/** A hook's context as a note the model can tell apart from the person's words. */
function labelled(event: string, outcome: HookOutcome): string[] {
  return outcome.context.map((text) => `[hook ${event}]\n${text}`);
}

/**
 * `"hookToolNames": "tern"`: the arguments as tern's tool got them, plus Claude Code's `file_path`
 * (absolute) where the call names a path, as tern sent them before payloads spoke Claude's names.
 */
function ternInput(args: unknown, cwd: string): unknown {
  if (typeof args !== "object" || args === null) return args;
  const path = (args as { path?: unknown }).path;
  if (typeof path !== "string") return args;
  return { ...args, file_path: path.startsWith("/") ? path : `${cwd}/${path}` };
}
