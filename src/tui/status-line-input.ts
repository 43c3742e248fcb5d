// The JSON a `statusLine` command reads on stdin (R-UI-23), field for field Claude Code's (its
// statusline docs), so a script written for Claude Code works unchanged: hook_event_name,
// session_id, transcript_path (the session's record), cwd, model, workspace, version,
// output_style, cost (with API time and lines added / removed: status-line-totals.ts),
// context_window, exceeds_200k_tokens. An unknown price is `null`, never 0 (R-UI-15).
import type { StatusLineTotals } from "./status-line-totals.js";
import type { UiState } from "./ui-state.js";

export interface StatusLineContext {
  cwd: string;
  version: string;
  /** The session's record file (record.jsonl), Claude Code's transcript. */
  transcriptPath: string;
  /** When this session was attached (performance.now() ms), for cost.total_duration_ms. */
  startedAt: number;
  now: number;
}

export function statusLineInput(state: UiState, totals: StatusLineTotals, ctx: StatusLineContext): object {
  const s = state.status;
  const used = s.contextWindow ? Math.round((s.lastPrompt / s.contextWindow) * 1000) / 10 : 0;
  const last = totals.last;
  return {
    hook_event_name: "Status",
    session_id: s.sessionId,
    transcript_path: ctx.transcriptPath,
    cwd: ctx.cwd,
    model: { id: s.model, display_name: s.model },
    workspace: { current_dir: ctx.cwd, project_dir: ctx.cwd },
    version: ctx.version,
    // tern has no output styles: Claude Code's name for the one it always uses.
    output_style: { name: "default" },
    cost: {
      total_cost_usd: s.cost,
      total_duration_ms: Math.round(ctx.now - ctx.startedAt),
      total_api_duration_ms: totals.apiDuration(),
      total_lines_added: totals.lines.added,
      total_lines_removed: totals.lines.removed,
    },
    context_window: {
      total_input_tokens: totals.input,
      total_output_tokens: totals.output,
      context_window_size: s.contextWindow,
      used_percentage: used,
      remaining_percentage: Math.round((100 - used) * 10) / 10,
      // The newest request's tokens; tern's prompt count includes the cached part, Claude's
      // input_tokens does not.
      current_usage: last
        ? {
            input_tokens: Math.max(0, last.prompt - last.cache_read - last.cache_write),
            output_tokens: last.completion,
            cache_creation_input_tokens: last.cache_write,
            cache_read_input_tokens: last.cache_read,
          }
        : s.lastPrompt
          ? { input_tokens: s.lastPrompt } // resumed: the record's figure, before this process's first request
          : null,
    },
    exceeds_200k_tokens: s.lastPrompt > 200_000,
    // tern's own, beside Claude Code's fields: the permission mode and thinking level in force.
    permission_mode: s.mode ?? "",
    thinking: s.thinking ?? "",
  };
}
