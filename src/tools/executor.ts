// Runs one batch of tool calls (R-TOOL-2/-3/-4): argument parsing, one approval round for the
// whole batch, at most 8 at once with per-file ordering, each result delivered as it finishes
// (through the R-TOOL-6 output gate), and cancellation. Never throws for a tool failure.
import { type ApprovalPolicy, loadApprovalJudge } from "./policy/approval.js";
import { resolvePath } from "./paths.js";
import { type ToolRegistry, parseArguments, unknownToolResult } from "./registry.js";
import { type OutputLimits, limitResult } from "./output-limit.js";
import { errorMessage } from "./results.js";
import { afterCall, type CallHookDecision, runCallHooks, withHook } from "./call-hooks.js";
import { presentCall } from "./present.js";
import type { CallPresentation, Tool, ToolContext, ToolKind, ToolResult } from "./types.js";
import type { ToolCall } from "../vocab/messages.js";

export type ApprovalAnswer = "approved" | "denied" | "always";

/** A call whose decision is "ask", as shown to the person deciding. */
export interface PendingCall {
  call: ToolCall;
  id: string;
  name: string;
  /** The raw JSON arguments, as the model sent them (for display). */
  arguments: string;
  args: unknown;
  kind: ToolKind;
  paths: string[];
  /** Why it asks even though a rule or mode might allow it (e.g. a write outside the workspace). */
  reason?: string;
  /** What answering `always` would cover from now on (R-TOOL-2: the prompt says so). */
  always?: string;
  /** How the call shows itself (title, kind, files, preview), from its tool. */
  presentation: CallPresentation;
}

export interface BatchHooks {
  /** PreToolUse hooks, after deny rules and before approval: a deny beats allow rules, grants and --yes. */
  beforeCall?(call: ToolCall, args: unknown): Promise<CallHookDecision | undefined>;
  /** PostToolUse hooks, after a call ran: text appended to the result the model sees. */
  afterCall?(call: ToolCall, args: unknown, result: ToolResult): Promise<string | undefined>;
  /** Asked once per batch with every call whose decision is "ask"; returns the decision per call id. */
  approve(calls: PendingCall[]): Promise<Map<string, ApprovalAnswer>>;
  /** Result text for a call answered "denied" (default `denied by user`); `tern run` without --yes says why. */
  denialMessage?: string;
  /** For every call that was asked about, and for calls a deny rule refused. */
  onDecision?(id: string, decision: "approved" | "denied"): void;
  /** Right before a call runs (the engine writes tool_start). */
  onStart(call: ToolCall): void;
  /**
   * As each call finishes (not in call order), with the exact value the model will see: redacted
   * and capped (R-TOOL-6). The engine writes tool_result at once (R-TOOL-3).
   */
  onResult(call: ToolCall, result: ToolResult, index: number): void;
}

export interface ToolExecutorOptions {
  parallel: boolean;
  limits?: OutputLimits;
}

/** R-TOOL-3: a batch of 200 calls never starts 200 processes at once. */
export const MAX_CONCURRENT = 8;
const DEFAULT_LIMITS: OutputLimits = { maxChars: 30_000, maxImageBytes: 5 * 1024 * 1024 };

/** A counting semaphore: `acquire` resolves with the function that gives the slot back. */
class Slots {
  private readonly waiting: (() => void)[] = [];
  constructor(private free: number) {}
  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    return () => {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

interface Planned {
  call: ToolCall;
  tool?: Tool;
  args?: unknown;
  /** Set when the call will not run: bad arguments, unknown tool, denial. */
  result?: ToolResult;
  paths: string[];
  /** Resolved absolute paths, for per-file ordering. */
  abs: string[];
  /** Where an edit's paths really landed when it was approved (symlinks followed). */
  approvedReal?: string[];
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
  ) {}

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
    const hookSays = await runCallHooks(planned, hooks, {
      denied: (p) => this.policy.evaluate(approvalCall(p)).decision === "deny",
      replan: (call) => this.plan(call, ctx),
    });
    await this.approveBatch(planned, hooks, hookSays);

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
    const done: Promise<void>[] = [];
    for (let i = 0; i < planned.length; i++) {
      const p = planned[i];
      // Calls naming the same file wait for the earlier ones; in sequential mode every call does.
      const before = this.opts.parallel
        ? planned.slice(0, i).flatMap((q, j) => (shareFile(p, q) ? [done[j]] : []))
        : done.slice(-1);
      const task = Promise.all(before).then(async () => {
        if (p.result) return settle(i, p.result);
        const release = await slots.acquire();
        try {
          settle(i, await afterCall(p, await this.execute(p, ctx, hooks), hooks));
        } finally {
          release();
        }
      });
      done.push(task);
    }
    await Promise.all(done);
    return results;
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
    if (!tool)
      return { call, paths: [], abs: [], result: unknownToolResult(call.name, this.registry.names()) };
    const parsed = parseArguments(tool, call.arguments);
    if (!parsed.ok) return { call, tool, paths: [], abs: [], result: parsed.result };
    let paths: string[];
    try {
      paths = tool.paths(parsed.args, ctx.cwd);
    } catch (err) {
      return {
        call,
        tool,
        paths: [],
        abs: [],
        result: { outcome: "error", content: text(`Invalid arguments: ${errorMessage(err)}`) },
      };
    }
    return { call, tool, args: parsed.args, paths, abs: absolutePaths(paths, ctx.cwd) };
  }

  private async approveBatch(
    planned: Planned[],
    hooks: BatchHooks,
    hookSays: Map<Planned, "allow" | "ask">,
  ): Promise<void> {
    const pending: PendingCall[] = [];
    for (const p of planned) {
      if (p.result || !p.tool) continue;
      if (p.tool.kind === "edit") p.approvedReal = this.policy.realPaths(approvalCall(p));
      const ruled = this.policy.evaluate({
        name: p.tool.name,
        args: p.args,
        kind: p.tool.kind,
        paths: p.paths,
        mcp: p.tool.mcp,
      });
      const verdict = withHook(ruled, hookSays.get(p));
      // Only what a rule allowed is judged again before it runs; a hook's allow was its own judgment.
      p.ruleAllowedShell = ruled.decision === "allow" && p.tool.kind === "shell";
      if (verdict.decision === "deny") {
        p.result = { outcome: "denied", content: text(`denied by rule ${verdict.rule}`) };
        hooks.onDecision?.(p.call.id, "denied");
      } else if (verdict.decision === "ask") {
        pending.push({
          call: p.call,
          id: p.call.id,
          name: p.tool.name,
          arguments: p.call.arguments,
          args: p.args,
          kind: p.tool.kind,
          paths: p.paths,
          reason: verdict.reason,
          always: this.policy.describeAlways(approvalCall(p)),
          presentation: presentCall(p.tool, p.call.arguments),
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
      const answer = answers.get(pc.id) ?? "denied";
      if (answer === "always") this.policy.grantAlways(pc);
      if (answer === "denied")
        p.result = { outcome: "denied", content: text(hooks.denialMessage ?? "denied by user") };
      hooks.onDecision?.(pc.id, answer === "denied" ? "denied" : "approved");
    }
  }

  /**
   * An earlier call of the batch may have turned a path into a symlink after approval; a write
   * that now lands elsewhere runs only if the policy would allow it there without asking (§10).
   */
  private retargeted(p: Planned): string | null {
    if (p.ruleAllowedShell) {
      // An earlier call may have made a redirect target a symlink to outside the workspace.
      const now = this.policy.evaluate(approvalCall(p));
      if (now.decision === "allow") return null;
      return `Not run: it ${now.reason ?? "needs approval now"} (changed since approval); ask again.`;
    }
    if (!p.approvedReal) return null;
    const call = approvalCall(p);
    const now = this.policy.realPaths(call);
    if (now.every((r, i) => r === p.approvedReal![i])) return null;
    if (this.policy.evaluate(call).decision === "allow") return null;
    return `Not written: ${p.paths.join(", ")} now resolves to ${now.join(", ")} (a symlink changed since approval); ask again.`;
  }

  private async execute(p: Planned, ctx: ToolContext, hooks: BatchHooks): Promise<ToolResult> {
    if (p.result) return p.result;
    if (ctx.signal.aborted) return NOT_EXECUTED;
    const tool = p.tool!;
    const moved = this.retargeted(p);
    if (moved) return { outcome: "error", content: text(moved) };
    try {
      hooks.onStart(p.call);
    } catch {
      // The call still runs; the hook is the front end's business.
    }
    let result: ToolResult;
    try {
      result = await tool.run(p.args, { ...ctx, callId: p.call.id });
    } catch (err) {
      result = { outcome: "error", content: text(`${tool.name} failed: ${errorMessage(err)}`) };
    }
    // R-TOOL-4: a call the person cancelled while it ran (Ctrl+C, Esc, SIGINT) was interrupted,
    // whatever failure its tool reports for being stopped (bash's killed group, MCP's abort).
    return ctx.signal.aborted && result.outcome === "error" ? { ...result, outcome: "interrupted" } : result;
  }
}

function approvalCall(p: Planned) {
  return { name: p.tool!.name, args: p.args, kind: p.tool!.kind, paths: p.paths };
}

/** Calls naming the same file (resolved absolute paths) must not overlap (R-TOOL-3). */
function shareFile(a: Planned, b: Planned): boolean {
  return a.abs.some((x) => b.abs.includes(x));
}

export function absolutePaths(paths: string[], cwd: string): string[] {
  return paths.map((p) => resolvePath(cwd, p));
}
