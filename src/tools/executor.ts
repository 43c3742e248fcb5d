// Runs one batch of tool calls (R-TOOL-2/-3/-4): argument parsing, one approval round for the
// whole batch, at most 8 at once with per-file ordering, each result delivered as it finishes
// (through the R-TOOL-6 output gate), and cancellation. Never throws for a tool failure.
import { type ApprovalPolicy, loadApprovalJudge } from "./policy/approval.js";
import { runInOrder, sameList, Serial, Slots } from "./batch-order.js";
import { afterCall, runCallHooks, withHook } from "./call-hooks.js";
import { earlyRefusals } from "./early-refusal.js";
import { resolvePath } from "./paths.js";
import { type ToolRegistry, parseArguments } from "./registry.js";
import { type OutputLimits, limitResult } from "./output-limit.js";
import { errorMessage } from "./results.js";
import { pendingCall, presentCall } from "./present.js";
import type { CallPresentation, Tool, ToolContext, ToolResult, WriteTarget } from "./types.js";
import type { ToolCall } from "../vocab/messages.js";
import type { ApprovalAnswer, BatchHooks, PendingCall, ToolExecutorOptions } from "./batch-types.js";
export type * from "./batch-types.js";

/** R-TOOL-3: a batch of 200 calls never starts 200 processes at once. */
export const MAX_CONCURRENT = 8;
const DEFAULT_LIMITS: OutputLimits = { maxChars: 30_000, maxImageBytes: 5 * 1024 * 1024 };

interface Planned {
  call: ToolCall;
  tool?: Tool;
  args?: unknown;
  /** Set when the call will not run: bad arguments, unknown tool, denial. */
  result?: ToolResult;
  paths: string[];
  /** What a person approved: the reason shown and where the paths really landed then. */
  asked?: { reason?: string; real: string[] };
  /** web_fetch: the local or private address its host resolves to (§10). */
  privateAddress?: string;
  /** web_fetch: every address the check saw; the call connects only to these (§10). */
  fetchAddresses?: { address: string; family: number }[];
  /** A shell call a rule or grant let run without asking: judged again right before it runs. */
  ruleAllowedShell?: boolean;
}

const text = (t: string): ToolResult["content"] => [{ type: "text", text: t }];
const NOT_EXECUTED: ToolResult = {
  outcome: "not_executed",
  content: text("not executed: cancelled by user"),
};

export class ToolExecutor {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly policy: ApprovalPolicy,
    private readonly opts: ToolExecutorOptions,
  ) {
    registry.offerOnly((tool) => policy.offers(tool));
  }

  /** Loads the tools' code (the first batch does it anyway); `present` needs it. */
  ready(): Promise<void> {
    return this.registry.ready();
  }

  /** How a call shows itself to a person; after `ready()`. */
  present(call: ToolCall): CallPresentation {
    return presentCall(this.registry.get(call.name), call.arguments);
  }

  async runBatch(calls: ToolCall[], ctx: ToolContext, hooks: BatchHooks): Promise<ToolResult[]> {
    // The tools' code and the approval judge load with the first batch (a run without tool calls never needs them).
    await Promise.all([this.registry.ready(), loadApprovalJudge()]);
    const planned = calls.map((call) => this.plan(call, ctx));
    await Promise.all(planned.map((p) => this.resolveFetch(p)));
    const absolute = (p: Planned) => p.paths.map((path) => resolvePath(ctx.cwd, path));
    const hookSays = await runCallHooks(planned, hooks, {
      denied: (p) => this.policy.evaluate(approvalCall(p)).decision === "deny",
      replan: (call) => this.plan(call, ctx),
    });
    await this.approveBatch(planned, hooks, hookSays, earlyRefusals(planned, ctx));
    const running = planned
      .filter((p) => !p.result)
      .map((p) => ({ ...p.call, kind: p.tool!.kind, paths: absolute(p) }));
    await hooks.beforeRun?.(running).catch(() => undefined);
    const results: ToolResult[] = new Array(calls.length);
    // Each result is handed over as soon as its call finishes, so a crash keeps every finished
    // result (R-TOOL-3); the model context puts them back in call order.
    const settle = (i: number, result: ToolResult) => {
      results[i] = this.limit(result, calls[i]);
      try {
        hooks.onResult(calls[i], results[i], i);
      } catch {
        // A front-end hook failure must not lose the other results.
      }
    };

    const slots = new Slots(this.opts.parallel ? MAX_CONCURRENT : 1);
    const asking = new Serial();
    const run = async (i: number) => {
      const p = planned[i];
      if (p.result) return settle(i, p.result);
      const release = await slots.acquire();
      try {
        settle(i, await afterCall(p, await this.execute(p, ctx, hooks, asking), hooks));
      } finally {
        release();
      }
    };
    await runInOrder(
      planned.map((p) => p.tool?.kind),
      (i) => absolute(planned[i]),
      this.opts.parallel,
      run,
    );
    return results;
  }

  private async resolveFetch(p: Planned): Promise<void> {
    if (p.tool?.kind !== "fetch" || p.result) return;
    const resolved = await this.policy.fetchAddress(approvalCall(p));
    p.privateAddress = resolved.private;
    p.fetchAddresses = resolved.addresses;
  }

  private limit(result: ToolResult, call: ToolCall): ToolResult {
    try {
      return limitResult(result, this.opts.limits ?? DEFAULT_LIMITS, call.id, call.name);
    } catch (err) {
      return { outcome: "error", content: text(`tool result could not be prepared: ${errorMessage(err)}`) };
    }
  }

  private plan(call: ToolCall, ctx: ToolContext): Planned {
    const tool = this.registry.get(call.name);
    if (!tool) return { call, paths: [], result: this.registry.missing(call.name) };
    const parsed = parseArguments(tool, call.arguments);
    if (!parsed.ok) return { call, tool, paths: [], result: parsed.result };
    let paths: string[];
    try {
      paths = tool.paths(parsed.args, ctx.cwd);
    } catch (err) {
      return {
        call,
        tool,
        paths: [],
        result: { outcome: "error", content: text(`Invalid arguments: ${errorMessage(err)}`) },
      };
    }
    return { call, tool, args: parsed.args, paths };
  }

  private async approveBatch(
    planned: Planned[],
    hooks: BatchHooks,
    hookSays: Map<Planned, "allow" | "ask">,
    refused: Map<Planned, ToolResult>,
  ): Promise<void> {
    const pending: PendingCall[] = [];
    for (const p of planned) {
      if (p.result || !p.tool) continue;
      const ruled = this.policy.evaluate({ ...approvalCall(p), mcp: p.tool.mcp });
      const verdict = withHook(ruled, hookSays.get(p));
      // Only what a rule allowed is judged again before it runs; a hook's allow was its own judgment,
      // and counts as an approval of the facts it saw (a link planted later still asks).
      p.ruleAllowedShell = ruled.decision === "allow" && p.tool.kind === "shell";
      if (hookSays.get(p) === "allow" && verdict.decision === "allow")
        p.asked = { reason: ruled.reason, real: this.policy.realPaths(approvalCall(p)) };
      if (verdict.decision === "deny") {
        p.result = { outcome: "denied", content: text(verdict.message ?? `denied by rule ${verdict.rule}`) };
        hooks.onDecision?.(p.call.id, "denied");
      } else if (verdict.decision === "ask") {
        // R-UI-19: what the tool will refuse anyway is refused, not asked.
        p.result = refused.get(p);
        if (p.result) continue;
        pending.push({
          ...pendingCall(p.call, p.tool!, p.args, p.paths),
          reason: verdict.reason,
          always: this.policy.describeAlways(approvalCall(p)),
        });
      }
    }
    if (pending.length === 0) return;
    let answers: Map<string, ApprovalAnswer>;
    try {
      answers = await hooks.approve(pending);
    } catch {
      answers = new Map();
    }
    for (const pc of pending) {
      const p = planned.find((q) => q.call === pc.call)!;
      if (!this.answered(p, pc, answers.get(pc.id), hooks))
        p.result = { outcome: "denied", content: text(hooks.denialMessage ?? "denied by user") };
    }
  }

  /** Applies a person's answer to a call; true when it may run. */
  private answered(
    p: Planned,
    pc: PendingCall,
    answer: ApprovalAnswer | undefined,
    hooks: BatchHooks,
  ): boolean {
    const yes = answer === "approved" || answer === "always";
    if (answer === "always") this.policy.grantAlways(pc);
    if (yes) p.asked = { reason: pc.reason, real: this.policy.realPaths(approvalCall(p)) };
    hooks.onDecision?.(pc.id, yes ? "approved" : "denied");
    return yes;
  }

  /**
   * Judges a file call again right before it runs (§10): an earlier call of the batch may have
   * planted a link since the batch was approved, and a write is judged on what it opened
   * (`opened`). Returns null when it may go on, else the refusal text. What needs a person that
   * the earlier answer did not cover is asked now, one question at a time.
   */
  private async rejudge(
    p: Planned,
    hooks: BatchHooks,
    asking: Serial,
    opened?: WriteTarget,
  ): Promise<string | null> {
    const call = { ...approvalCall(p), mcp: p.tool!.mcp, ...(opened ? { opened: [opened] } : {}) };
    const verdict = this.policy.evaluate(call);
    if (verdict.decision === "allow") return null;
    if (verdict.decision === "deny") return `denied by rule ${verdict.rule}`;
    const real = opened ? [opened.real] : this.policy.realPaths(call);
    if (p.asked && p.asked.reason === verdict.reason && sameList(p.asked.real, real)) return null;
    return asking.run(async () => {
      const pending: PendingCall = {
        ...pendingCall(p.call, p.tool!, p.args, p.paths),
        reason: verdict.reason ?? "changed since the batch was approved",
        always: this.policy.describeAlways(call),
      };
      let answers: Map<string, ApprovalAnswer>;
      try {
        answers = await hooks.approve([pending]);
      } catch {
        answers = new Map();
      }
      if (!this.answered(p, pending, answers.get(pending.id), hooks))
        return `${hooks.denialMessage ?? "denied by user"} (${pending.reason})`;
      p.asked = { reason: verdict.reason, real };
      return null;
    });
  }

  /** A rule-allowed shell call: an earlier call may have made a redirect target a symlink out of the workspace. */
  private retargeted(p: Planned): string | null {
    if (!p.ruleAllowedShell) return null;
    const now = this.policy.evaluate(approvalCall(p));
    if (now.decision === "allow") return null;
    return `Not run: it ${now.reason ?? "needs approval now"} (changed since approval); ask again.`;
  }

  private async execute(
    p: Planned,
    ctx: ToolContext,
    hooks: BatchHooks,
    asking: Serial,
  ): Promise<ToolResult> {
    if (p.result) return p.result;
    if (ctx.signal.aborted) return NOT_EXECUTED;
    const tool = p.tool!;
    const moved = this.retargeted(p);
    if (moved) return { outcome: "error", content: text(moved) };
    // Writes are judged on the file they opened (admitWrite); other file calls on their paths now.
    // A fetch is judged on where its host points now (a name may resolve elsewhere by now).
    if (tool.kind === "fetch") await this.resolveFetch(p);
    if ((tool.kind !== "shell" && tool.kind !== "edit" && p.paths.length > 0) || tool.kind === "fetch") {
      const refusal = await this.rejudge(p, hooks, asking);
      if (refusal) return { outcome: "denied", content: text(refusal) };
    }
    if (ctx.signal.aborted) return NOT_EXECUTED;
    const admitWrite = (target: WriteTarget) => this.rejudge(p, hooks, asking, target);
    try {
      hooks.onStart(p.call);
    } catch {
      // The call still runs; the hook is the front end's business.
    }
    let result: ToolResult;
    try {
      result = await tool.run(p.args, {
        ...ctx,
        callId: p.call.id,
        admitWrite,
        hidden: this.policy.hiddenFolders(),
        fetchAddresses: p.fetchAddresses,
      });
    } catch (err) {
      result = { outcome: "error", content: text(`${tool.name} failed: ${errorMessage(err)}`) };
    }
    // R-TOOL-4: a call the person cancelled while it ran (Ctrl+C, Esc, SIGINT) was interrupted,
    // whatever failure its tool reports for being stopped (bash's killed group, MCP's abort).
    return ctx.signal.aborted && result.outcome === "error" ? { ...result, outcome: "interrupted" } : result;
  }
}

function approvalCall(p: Planned) {
  return {
    name: p.tool!.name,
    args: p.args,
    kind: p.tool!.kind,
    paths: p.paths,
    privateAddress: p.privateAddress,
  };
}
