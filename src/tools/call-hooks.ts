// The user's hooks around a batch's calls (R-HOOK-3): PreToolUse after deny rules and before
// approval, PostToolUse after a call ran. The executor owns the order; this owns what a hook's
// answer does to a call.
import type { ToolResult } from "./types.js";
import type { ToolCall } from "../vocab/messages.js";

/** What PreToolUse hooks decided about one call; the hooks module's outcome fits it. */
export interface CallHookDecision {
  permission?: "allow" | "deny" | "ask";
  reason?: string;
  /** Why it was blocked (exit 2, or a deny): the call's result. */
  block?: string;
  /** New arguments, judged again as if the model had sent them. */
  updatedInput?: Record<string, unknown>;
}

interface HookedCall {
  call: ToolCall;
  tool?: unknown;
  args?: unknown;
  result?: ToolResult;
}

interface CallHooks {
  beforeCall?(call: ToolCall, args: unknown): Promise<CallHookDecision | undefined>;
  afterCall?(call: ToolCall, args: unknown, result: ToolResult): Promise<string | undefined>;
  onDecision?(id: string, decision: "approved" | "denied"): void;
}

const text = (t: string): ToolResult["content"] => [{ type: "text", text: t }];

/**
 * PreToolUse for every call the model made that reached a tool (as in Claude Code, so an audit hook
 * misses nothing); for one a deny rule refuses the hook runs but the deny wins. Otherwise a deny or
 * block becomes the call's result;
 * `updatedInput` replaces its arguments (planned, and so judged, again); allow / ask are returned
 * for the approval that follows. A hook that fails decides nothing.
 */
export async function runCallHooks<P extends HookedCall>(
  planned: P[],
  hooks: CallHooks,
  deps: { denied(p: P): boolean; replan(call: ToolCall): P },
): Promise<Map<P, "allow" | "ask">> {
  const says = new Map<P, "allow" | "ask">();
  const before = hooks.beforeCall;
  if (!before) return says;
  const runs = planned.map(async (p, i) => {
    if (p.result || !p.tool) return;
    const refused = deps.denied(p);
    const decision = await before(p.call, p.args).catch(() => undefined);
    if (!decision || refused) return;
    if (decision.permission === "deny" || decision.block !== undefined) {
      const why = decision.block ?? decision.reason ?? "denied";
      p.result = { outcome: "denied", content: text(`blocked by a PreToolUse hook: ${why}`) };
      hooks.onDecision?.(p.call.id, "denied");
      return;
    }
    if (decision.updatedInput) {
      planned[i] = deps.replan({ ...p.call, arguments: JSON.stringify(decision.updatedInput) });
      if (planned[i].result) return;
    }
    if (decision.permission === "allow" || decision.permission === "ask")
      says.set(planned[i], decision.permission);
  });
  await Promise.all(runs);
  return says;
}

/** PostToolUse: what the hooks say joins the result the model sees. */
export async function afterCall(p: HookedCall, result: ToolResult, hooks: CallHooks): Promise<ToolResult> {
  if (!hooks.afterCall || !p.tool) return result;
  const extra = await hooks.afterCall(p.call, p.args, result).catch(() => undefined);
  return extra ? { ...result, content: [...result.content, ...text(extra)] } : result;
}

/**
 * A hook's `allow` skips asking, but never past what asks whatever the mode (a protected path, a
 * write outside the workspace: those carry a reason); its `ask` asks even where a rule allows.
 */
export function withHook<V extends { decision: string; reason?: string }>(
  verdict: V,
  hook: "allow" | "ask" | undefined,
): V {
  if (hook === "allow" && verdict.decision === "ask" && verdict.reason === undefined)
    return { ...verdict, decision: "allow" };
  if (hook === "ask" && verdict.decision === "allow")
    return { ...verdict, decision: "ask", reason: "a PreToolUse hook asks" };
  return verdict;
}
