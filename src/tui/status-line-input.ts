// The JSON a `statusLine` command reads on stdin (R-UI-23), in Claude Code's field names so a
// script written for Claude Code works unchanged: hook_event_name, session_id, cwd, model,
// workspace, version, cost, context_window. Fields tern does not track (lines added/removed,
// API time, output style) are left out rather than sent as made-up zeros; an unknown price is
// `null`, never 0 (R-UI-15).
import type { UiState } from "./ui-state.js";

/** Totals this process saw in `usage` events, for the context_window totals. */
export interface UsageTotals {
  input: number;
  output: number;
}

export interface StatusLineContext {
  cwd: string;
  version: string;
  /** When this UI started (performance.now() ms), for cost.total_duration_ms. */
  startedAt: number;
  now: number;
}

export function statusLineInput(state: UiState, totals: UsageTotals, ctx: StatusLineContext): object {
  const s = state.status;
  const used = s.contextWindow ? Math.round((s.lastPrompt / s.contextWindow) * 1000) / 10 : 0;
  return {
    hook_event_name: "Status",
    session_id: s.sessionId,
    cwd: ctx.cwd,
    model: { id: s.model, display_name: s.model },
    workspace: { current_dir: ctx.cwd, project_dir: ctx.cwd },
    version: ctx.version,
    cost: {
      total_cost_usd: s.cost,
      total_duration_ms: Math.round(ctx.now - ctx.startedAt),
    },
    context_window: {
      total_input_tokens: totals.input,
      total_output_tokens: totals.output,
      context_window_size: s.contextWindow,
      used_percentage: used,
      remaining_percentage: Math.round((100 - used) * 10) / 10,
      current_usage: s.lastPrompt ? { input_tokens: s.lastPrompt } : null,
    },
    exceeds_200k_tokens: s.lastPrompt > 200_000,
    // tern's own, beside Claude Code's fields: the permission mode and thinking level in force.
    permission_mode: s.mode ?? "",
    thinking: s.thinking ?? "",
  };
}
