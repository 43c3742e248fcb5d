// The turn loop alone, wired to plain objects instead of a session: no HTTP, no files, no timers.
// Each case scripts the model's answers and checks the stop, the committed records and the counts.
import { describe, expect, it } from "vitest";
import type { ExecutionBudget } from "../../src/config/types.js";
import type { LimitAnswer } from "../../src/engine/turn/budget.js";
import type { EngineEvent } from "../../src/engine/door/events.js";
import { runTurnLoop } from "../../src/engine/turn/turn-loop.js";
import type { RoundAnswer, TurnInput, TurnPorts } from "../../src/engine/turn/turn-ports.js";
import { ProviderError } from "../../src/provider/errors.js";
import { DurationLimitError } from "../../src/provider/retry.js";
import type { StreamResult } from "../../src/provider/types.js";
import type { ToolResult } from "../../src/tools/types.js";
import type { ToolCall } from "../../src/vocab/messages.js";

const usage = { prompt: 10, completion: 2, cacheRead: 0, cacheWrite: 0 };

function answer(over: Partial<StreamResult>): StreamResult {
  return {
    text: "",
    reasoning: "",
    thinkingBlocks: [],
    toolCalls: [],
    finish: "stop",
    rawFinish: "stop",
    usage,
    ...over,
  };
}
const text = (t: string): StreamResult => answer({ text: t });
const call = (id: string, name = "bash"): ToolCall => ({ id, name, arguments: "{}" });
const tools = (...calls: ToolCall[]): StreamResult => answer({ toolCalls: calls, finish: "tool_calls" });
const overflow = () =>
  new ProviderError({ errorClass: "context_overflow", message: "too long", retryable: false });

/** A model step: an answer, an error to reject with, or a function of the round's signal. */
type Step = StreamResult | Error | ((signal: AbortSignal) => Promise<StreamResult>);

interface Rig {
  ports: TurnPorts;
  records: string[];
  events: EngineEvent[];
  ends: Parameters<TurnPorts["commitTurnEnd"]>[0][];
  compactions: string[];
  batches: ToolCall[][];
  run(input?: Partial<TurnInput>, signal?: AbortSignal): ReturnType<typeof runTurnLoop>;
}

function rig(
  steps: Step[],
  opts: {
    budget?: Partial<ExecutionBudget>;
    maxTruncationContinues?: number;
    onLimit?: () => Promise<LimitAnswer>;
    runBatch?: (calls: ToolCall[], signal: AbortSignal) => Promise<ToolResult[]>;
    compact?: (why: string) => string | undefined;
    followUps?: string[];
  } = {},
): Rig {
  const records: string[] = [];
  const events: EngineEvent[] = [];
  const ends: Rig["ends"] = [];
  const compactions: string[] = [];
  const batches: ToolCall[][] = [];
  let lastTurn = 0;
  const ports: TurnPorts = {
    executionBudget: {
      maximumModelCalls: null,
      maximumToolCalls: null,
      maximumDurationSeconds: null,
      ...opts.budget,
    },
    maxTruncationContinues: opts.maxTruncationContinues ?? 3,
    onLimit: opts.onLimit ? async () => opts.onLimit!() : undefined,
    lastTurn: () => lastTurn,
    autoContinueTurn: undefined,
    publish: (e) => events.push(e),
    beginTurn: () => records.push("begin"),
    endYoloOnce: () => records.push("yolo_off"),
    commitUserPrompt: (turn) => {
      lastTurn = turn;
      records.push(`user_prompt ${turn}`);
    },
    commitAssistant: (_turn, round, result) =>
      records.push(`assistant r${round} ${result.finish} calls=${result.toolCalls.length}`),
    commitNotice: () => records.push("notice"),
    addTodoReminderIfOwed: () => undefined,
    commitQueuedFollowUp: async () => {
      const next = opts.followUps?.shift();
      if (next) records.push(`follow_up ${next}`);
    },
    quiesce: (reason) => records.push(`quiesce ${reason}`),
    commitTurnEnd: (end) => {
      ends.push(end);
      records.push(`turn_end ${end.stopReason}`);
      return end;
    },
    noteTodoUse: () => undefined,
    stream: async (_round, signal, _deadline, hooks): Promise<RoundAnswer> => {
      hooks.onAttemptStart();
      const step = steps.shift();
      if (step === undefined) throw new Error("script ran out");
      if (step instanceof Error) throw step;
      const result = typeof step === "function" ? await step(signal) : step;
      if (result.usage) hooks.onUsage(result.usage);
      return { result, spent: { attempts: 1, failedUsage: null } };
    },
    runBatch: async (_turn, calls, signal) => {
      batches.push(calls);
      if (opts.runBatch) return opts.runBatch(calls, signal);
      return calls.map(() => ({ outcome: "ok", content: [{ type: "text", text: "done" }] }) as ToolResult);
    },
    overBudget: () => false,
    compact: async (why) => {
      compactions.push(why);
      return opts.compact?.(why);
    },
  };
  const run = (input: Partial<TurnInput> = {}, signal = new AbortController().signal) =>
    runTurnLoop(ports, { content: [{ type: "text", text: "go" }], ...input }, signal);
  return { ports, records, events, ends, compactions, batches, run };
}

/** A stream that only ends when its signal aborts, the way a cancelled HTTP stream does. */
const hang = (onStart: () => void) => (signal: AbortSignal) =>
  new Promise<StreamResult>((_, reject) => {
    signal.addEventListener("abort", () => reject(new Error("aborted")));
    onStart();
  });

describe("runTurnLoop", () => {
  it("completes a turn whose one round asks for no tools", async () => {
    const r = rig([text("hello")]);
    const out = await r.run();
    expect(out).toEqual({ turn: 1, stopReason: "completed", finalText: "hello", error: undefined });
    expect(r.records).toEqual([
      "begin",
      "user_prompt 1",
      "assistant r1 stop calls=0",
      "yolo_off",
      "quiesce replied",
      "turn_end completed",
    ]);
    expect(r.ends[0]).toMatchObject({ rounds: 1, modelCalls: 1, toolCalls: 0, usage });
  });

  it("runs tool rounds, takes a follow-up after each batch, and counts calls and errors", async () => {
    const r = rig([tools(call("a"), call("b")), tools(call("c")), text("ok")], {
      followUps: ["also this"],
      runBatch: async (calls) =>
        calls.map((c) => ({ outcome: c.id === "b" ? "error" : "ok", content: [] }) as ToolResult),
    });
    const out = await r.run();
    expect(out.stopReason).toBe("completed");
    expect(r.batches.map((b) => b.map((c) => c.id))).toEqual([["a", "b"], ["c"]]);
    expect(r.records).toContain("follow_up also this");
    expect(r.records.indexOf("follow_up also this")).toBeLessThan(
      r.records.indexOf("assistant r2 tool_calls calls=1"),
    );
    expect(r.ends[0]).toMatchObject({ rounds: 3, modelCalls: 3, toolCalls: 3, toolErrors: 1 });
  });

  it("continues a reply cut at the output limit, then stops once continues run out", async () => {
    const cut = () => answer({ text: "part", finish: "length", toolCalls: [call("x")] });
    const r = rig([cut(), text("rest")], { maxTruncationContinues: 1 });
    expect((await r.run()).stopReason).toBe("completed");
    // A cut reply's calls are dropped (their arguments may be cut too).
    expect(r.records).toContain("assistant r1 length calls=0");
    expect(r.records.filter((x) => x === "notice")).toHaveLength(1);

    const r2 = rig([cut(), cut()], { maxTruncationContinues: 1 });
    expect((await r2.run()).stopReason).toBe("output_truncated");
    expect(r2.batches).toEqual([]);
  });

  it("stops content_filtered without running the answer's calls", async () => {
    const r = rig([answer({ finish: "content_filter", toolCalls: [call("a")] })]);
    expect((await r.run()).stopReason).toBe("content_filtered");
    expect(r.records).toContain("assistant r1 content_filter calls=0");
    expect(r.batches).toEqual([]);
  });

  it("stops at the model-call and tool-call budgets unless the front end grants more", async () => {
    const calls = rig([tools(call("a")), text("never")], { budget: { maximumModelCalls: 1 } });
    expect((await calls.run()).stopReason).toBe("model_call_limit_reached");
    expect(calls.events).toContainEqual({ type: "limit_reached", limit: "model_calls", used: 1, allowed: 1 });

    const batch = rig([tools(call("a"), call("b"))], { budget: { maximumToolCalls: 1 } });
    expect((await batch.run()).stopReason).toBe("tool_call_limit_reached");
    expect(batch.records).toContain("assistant r1 tool_calls calls=0");

    // `yyy` holds for the turn and for its /retry, kept in the session's state: asked once only.
    let asked = 0;
    const yyy = rig([tools(call("a")), text("ok"), tools(call("b")), text("again"), tools(call("c"))], {
      budget: { maximumModelCalls: 1 },
      onLimit: async () => (++asked === 1 ? "all" : "no"),
    });
    expect((await yyy.run()).stopReason).toBe("completed");
    expect(yyy.ports.autoContinueTurn).toBe(1);
    expect((await yyy.run({ retry: true })).stopReason).toBe("completed");
    expect(asked).toBe(1);
    // A new turn starts without it: the limit is asked about again.
    expect((await yyy.run()).stopReason).toBe("model_call_limit_reached");
    expect(asked).toBe(2);
    expect(yyy.ports.autoContinueTurn).toBeUndefined();
  });

  it("stops cancelled when the user cancels mid-stream", async () => {
    const cancel = new AbortController();
    const r = rig([hang(() => cancel.abort())]);
    const out = await r.run({}, cancel.signal);
    expect(out.stopReason).toBe("cancelled");
    expect(r.records.slice(-2)).toEqual(["quiesce cancelled", "turn_end cancelled"]);
    expect(r.events.some((e) => e.type === "error")).toBe(false);
  });

  it("stops cancelled when the user cancels mid-batch, after the batch returns", async () => {
    const cancel = new AbortController();
    const r = rig([tools(call("a")), text("never")], {
      runBatch: async (calls) => {
        cancel.abort();
        return calls.map(() => ({ outcome: "interrupted", content: [] }) as ToolResult);
      },
    });
    const out = await r.run({}, cancel.signal);
    expect(out.stopReason).toBe("cancelled");
    expect(r.ends[0]).toMatchObject({ rounds: 1, toolErrors: 1 });
  });

  it("answers a provider overflow with one compaction and one re-run of the round", async () => {
    const r = rig([overflow(), text("fits now")]);
    expect((await r.run()).stopReason).toBe("completed");
    expect(r.compactions).toEqual(["overflow"]);
    expect(r.events.filter((e) => e.type === "round_start")).toEqual([
      { type: "round_start", turn: 1, round: 1 },
      { type: "round_start", turn: 1, round: 1 },
    ]);
    expect(r.ends[0]).toMatchObject({ rounds: 1, modelCalls: 2 });

    // A second overflow is not compacted again: the provider's own error is the stop.
    const twice = rig([overflow(), overflow()]);
    const out = await twice.run();
    expect(out).toMatchObject({
      stopReason: "context_overflow",
      error: { class: "context_overflow", message: "too long" },
    });
    expect(twice.compactions).toEqual(["overflow"]);

    // Nothing to compact: the provider's error, not the compaction's, is reported.
    const none = rig([overflow()], { compact: () => "nothing could be compacted" });
    expect((await none.run()).error).toEqual({ class: "context_overflow", message: "too long" });
  });

  it("fails on a provider error, an unknown finish reason, or a bug, and publishes the error", async () => {
    const server = new ProviderError({
      errorClass: "server",
      message: "boom",
      status: 500,
      retryable: false,
    });
    const r = rig([server]);
    expect(await r.run()).toMatchObject({ stopReason: "failed", error: { class: "server", status: 500 } });
    expect(r.events).toContainEqual({ type: "error", class: "server", status: 500, message: "boom" });

    const odd = rig([answer({ finish: "other:weird", rawFinish: "weird" })]);
    expect((await odd.run()).error).toEqual({
      class: "finish_reason",
      message: "Model stopped with finish reason 'weird'",
    });

    const bug = rig([tools(call("a"))], { runBatch: async () => Promise.reject(new Error("executor bug")) });
    expect((await bug.run()).error).toEqual({ class: "internal", message: "executor bug" });
    expect(bug.records.at(-1)).toBe("turn_end failed");
  });

  it("stops at the duration limit when a retry's wait would pass it", async () => {
    const last = new ProviderError({
      errorClass: "rate_limit",
      message: "slow down",
      retryable: true,
      retryAfterMs: 9000,
    });
    const r = rig([new DurationLimitError(9000, last)]);
    const out = await r.run();
    expect(out.stopReason).toBe("duration_limit_reached");
    expect(out.error?.message).toMatch(/asked to wait 9s .*last error: slow down/);
  });

  it("compacts first when asked and stops when in-turn compaction cannot make room", async () => {
    const first = rig([text("ok")]);
    expect((await first.run({ compactFirst: true })).stopReason).toBe("completed");
    expect(first.compactions).toEqual(["manual"]);

    const full = rig([text("never")], { compact: () => "still over" });
    full.ports.overBudget = () => true;
    const out = await full.run();
    expect(out).toMatchObject({ stopReason: "context_overflow", error: { message: "still over" } });
    expect(full.records).not.toContain("assistant r1 stop calls=0");
  });
});
