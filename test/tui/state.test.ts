// The UI reducer: engine events and UI actions in, state out (pure, no terminal).
import type { FollowUpChange } from "../../src/engine/door/events.js";
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../src/engine/door/events.js";
import { reduce } from "../../src/tui/reducer.js";
import { phaseText } from "../../src/tui/status-text.js";
import type { UiAction } from "../../src/tui/ui-actions.js";
import { initialState, type UiState } from "../../src/tui/ui-state.js";

const start = () => initialState({ model: "local/m", sessionId: "s1", contextWindow: 1000 });
const ev = (event: EngineEvent, now = 0): UiAction => ({ type: "event", event, now });
const run = (state: UiState, ...actions: UiAction[]) => actions.reduce(reduce, state);
const usage = { prompt: 0, completion: 0, cache_read: 0, cache_write: 0 };
const shown = { title: "ls", kind: "execute" as const, locations: [] };
const end = (over: Partial<Extract<EngineEvent, { type: "turn_end" }>> = {}): EngineEvent => ({
  type: "turn_end",
  turn: 1,
  stop_reason: "completed",
  rounds: 3,
  model_calls: 3,
  tool_calls: 2,
  tool_errors: 0,
  usage,
  cost: 0.5,
  duration_ms: 1500,
  tool_rounds: 2,
  ...over,
});
const assistant = (text: string, calls = 0): EngineEvent => ({
  type: "assistant_message",
  text,
  reasoning: "",
  tool_calls: Array.from({ length: calls }, (_, i) => ({ id: `c${i}`, name: "bash", arguments: "{}" })),
  finish_reason: calls ? "tool_calls" : "stop",
});

describe("tui state", () => {
  it("streams text live and commits it once on assistant_message", () => {
    const s = run(
      start(),
      ev({ type: "turn_start", turn: 1 }),
      ev({ type: "text_delta", text: "Hel" }),
      ev({ type: "text_delta", text: "lo" }),
    );
    expect(s.live).toBe("Hello");
    const done = reduce(s, ev(assistant("Hello")));
    expect(done.live).toBe("");
    expect(done.items.map((i) => i.text)).toEqual(["Hello"]);
  });

  it("drops a failed attempt's text on stream_discarded; the retry counts down as K of N", () => {
    const s = run(
      { ...start(), status: { ...start().status, maxAttempts: 6 } },
      ev({ type: "text_delta", text: "partial" }),
      ev({ type: "stream_discarded", round: 1, attempt: 1 }),
      ev(
        {
          type: "retry_scheduled",
          attempt: 2,
          delay_ms: 4000,
          reason: "rate_limit",
          status: 429,
          message: "HTTP 429",
        },
        10_000,
      ),
    );
    expect(s.live).toBe("");
    expect(s.items.map((i) => i.text)).toEqual(["retrying model request: HTTP 429"]);
    expect(phaseText(s.phase!, 10_000)).toBe("Retrying in 4s (Attempt 2 of 6) · HTTP 429");
    expect(phaseText(s.phase!, 11_200)).toBe("Retrying in 3s (Attempt 2 of 6) · HTTP 429");
    expect(phaseText(s.phase!, 20_000)).toBe("Retrying in 0s (Attempt 2 of 6) · HTTP 429");
  });

  it("labels a finished turn with rounds that asked for tools, and sums cost and tokens", () => {
    const s = run(
      start(),
      ev({ type: "turn_start", turn: 1 }),
      ev(assistant("", 1)),
      ev({ type: "tool_call", id: "c0", name: "bash", arguments: "{}", presentation: shown }),
      ev(assistant("", 1)),
      ev({ type: "usage", ...usage, prompt: 250, completion: 10 }),
      ev(assistant("done")),
      ev(end()),
    );
    expect(s.items.at(-1)!.text).toBe(
      "— turn 1 · completed · rounds=2 · tools=2 · errors=0 · 1.5s · $0.5000",
    );
    expect(s.phase).toBeNull();
    expect(s.status).toMatchObject({ lastPrompt: 250, tokens: 260, cost: 0.5 });
    expect(reduce(s, ev(end({ cost: null }))).status.cost).toBeNull();
  });

  it("shows the running tool and the approval wait in the phase, and the tool again once approved", () => {
    let s = reduce(
      start(),
      ev(
        { type: "tool_call", id: "c1", name: "bash", arguments: '{"command":"ls"}', presentation: shown },
        1000,
      ),
    );
    expect(phaseText(s.phase!, 13_000)).toBe("Running bash · 12s");
    s = reduce(s, {
      type: "approval",
      calls: [{ id: "c1", name: "bash", arguments: "{}", paths: [], presentation: shown }],
      now: 2000,
    });
    expect(phaseText(s.phase!, 3000)).toBe("Waiting for approval");
    s = reduce(s, { type: "approval_answer", answer: "approved" });
    s = reduce(s, { type: "approval", calls: null, now: 4000 });
    expect(s.approval).toBeNull();
    // Approved and running: not "Thinking" (R-UI-15).
    expect(phaseText(s.phase!, 6000)).toBe("Running bash · 2s");
    s = reduce(s, ev({ type: "tool_result", id: "c1", name: "bash", outcome: "ok", content: "a\nb" }, 7000));
    expect(phaseText(s.phase!, 7000)).toBe("Thinking");
    expect(s.items.at(-1)).toMatchObject({
      kind: "tool",
      tool: { name: "bash", outcome: "ok", content: "a\nb" },
    });
  });

  it("draws the engine's follow-up queue from its events; a joined or started one is printed as sent", () => {
    const ev = (change: FollowUpChange, queued: string[], held = false, text?: string) => ({
      type: "event" as const,
      now: 0,
      event: {
        type: "follow_up" as const,
        change,
        ...(text ? { follow_up: { id: 1, text } } : {}),
        queued: queued.map((t, i) => ({ id: i + 1, text: t })),
        held,
      },
    });
    let s = run(
      start(),
      ev("queued", ["a"], false, "a"),
      ev("queued", ["a", "b"], false, "b"),
      ev("held", ["a", "b"], true),
    );
    expect(s).toMatchObject({ queue: ["a", "b"], held: true });
    const printed = s.items.length;
    s = reduce(s, ev("joined", ["b"], false, "a"));
    expect(s).toMatchObject({ queue: ["b"], held: false });
    expect(s.items.slice(printed).map((i) => i.text)).toEqual(["› a"]);
    s = reduce(s, ev("taken_back", [], false, "b"));
    expect(s.queue).toEqual([]);
    expect(s.items).toHaveLength(printed + 1);
  });

  it("side panel: pending answer, thread stepping, clear and cancel", () => {
    let s = reduce(start(), { type: "side_ask", question: "q1" });
    expect(s.side).toMatchObject({ open: true, pending: { question: "q1", text: "", reasoning: false } });
    s = reduce(s, { type: "side_event", kind: "reasoning_delta", text: "hmm" });
    expect(s.side.pending!.reasoning).toBe(true);
    s = run(
      s,
      { type: "side_event", kind: "text_delta", text: "a1" },
      { type: "side_done", ok: true, text: "a1" },
    );
    s = run(s, { type: "side_ask", question: "q2" }, { type: "side_done", ok: true, text: "a2" });
    expect(s.side).toMatchObject({ index: 1, pending: null });
    expect(reduce(s, { type: "side_step", delta: -1 }).side.index).toBe(0);
    expect(run(s, { type: "side_step", delta: -1 }, { type: "side_step", delta: -1 }).side.index).toBe(0);
    expect(reduce(s, { type: "side_step", delta: 1 }).side.index).toBe(1);
    expect(reduce(s, { type: "side_clear" }).side.thread).toEqual([]);
    const cancelled = run(s, { type: "side_ask", question: "q3" }, { type: "side_cancel" });
    expect(cancelled.side).toMatchObject({ open: false, pending: null });
    const failed = run(
      s,
      { type: "side_ask", question: "q4" },
      { type: "side_done", ok: false, text: "", error: "boom" },
    );
    expect(failed.side.pending).toMatchObject({ question: "q4", error: "boom" });
  });

  it("side panel: a finished answer scrolls within what the panel can show, from the top again on a new one", () => {
    let s = run(start(), { type: "side_ask", question: "q1" }, { type: "side_done", ok: true, text: "a1" });
    expect(s.side.scroll).toBe(0);
    s = reduce(s, { type: "side_scroll", delta: 3, max: 5 });
    expect(s.side.scroll).toBe(3);
    expect(reduce(s, { type: "side_scroll", delta: 10, max: 5 }).side.scroll).toBe(5);
    expect(reduce(s, { type: "side_scroll", delta: -10, max: 5 }).side.scroll).toBe(0);
    // Another answer (a new one, or an earlier one stepped to) is read from its top.
    expect(
      run(s, { type: "side_ask", question: "q2" }, { type: "side_done", ok: true, text: "a2" }).side.scroll,
    ).toBe(0);
    s = run(s, { type: "side_ask", question: "q2" }, { type: "side_done", ok: true, text: "a2" });
    s = reduce(s, { type: "side_scroll", delta: 2, max: 5 });
    expect(reduce(s, { type: "side_step", delta: -1 }).side).toMatchObject({ index: 0, scroll: 0 });
    expect(reduce(s, { type: "side_clear" }).side.scroll).toBe(0);
  });

  it("clears the live text and the phase when the work ends", () => {
    const s = run(
      start(),
      { type: "busy", busy: true, phase: { kind: "compacting" } },
      ev({ type: "text_delta", text: "x" }),
    );
    expect(phaseText(s.phase!, 0)).toBe("Compacting");
    expect(reduce(s, { type: "busy", busy: false })).toMatchObject({ busy: false, phase: null, live: "" });
  });

  it("puts the composer cursor at the end unless told, clamped to the text", () => {
    expect(reduce(start(), { type: "compose", text: "abc" })).toMatchObject({ composer: "abc", cursor: 3 });
    expect(reduce(start(), { type: "compose", text: "abc", cursor: 1 }).cursor).toBe(1);
    expect(reduce(start(), { type: "compose", text: "abc", cursor: 9 }).cursor).toBe(3);
  });
});

describe("reasoning and hosted tools in the UI (R-PROV-10, R-PROV-11)", () => {
  it("reasoning streams into its own live area and collapses when the answer starts", () => {
    const thinking = run(
      start(),
      ev({ type: "turn_start", turn: 1 }),
      ev({ type: "reasoning_delta", text: "Let me " }),
      ev({ type: "reasoning_delta", text: "think." }),
    );
    expect(thinking.liveReasoning).toBe("Let me think.");
    expect(thinking.live).toBe("");
    const answering = run(
      thinking,
      ev({ type: "text_delta", text: "Answer" }),
      ev({ type: "reasoning_delta", text: "late" }),
    );
    expect(answering.liveReasoning).toBe("");
    expect(answering.live).toBe("Answer");
    const discarded = run(thinking, ev({ type: "stream_discarded", round: 1, attempt: 1 }));
    expect(discarded.liveReasoning).toBe("");
  });

  it("a provider-run search is shown once it is done; the status keeps the thinking level", () => {
    const s = run(
      start(),
      ev({ type: "hosted_tool", name: "web_search", status: "started", detail: "" }),
      ev({ type: "hosted_tool", name: "web_search", status: "done", detail: "node lts" }),
      {
        type: "session",
        model: "anthropic/claude-sonnet-4-5",
        sessionId: "s1",
        contextWindow: 200000,
        thinking: "high",
      },
    );
    expect(s.items.map((i) => i.text)).toEqual(['⌕ web_search (run by the provider) "node lts"']);
    expect(s.status.thinking).toBe("high");
  });
});

describe("background jobs in the UI (R-JOB-2)", () => {
  it("the status line counts running jobs and a finished job's exit is one transcript line", async () => {
    const { statusText } = await import("../../src/tui/live-view.js");
    let s = run(
      start(),
      ev({ type: "job_start", id: "job-1", command: "npm run dev", pid: 10 }),
      ev({ type: "job_start", id: "job-2", command: "tsc -w", pid: 11 }),
    );
    expect(statusText(s, 200)).toContain("2 jobs running");
    s = run(s, ev({ type: "job_end", id: "job-1", status: 0, reason: "exited", command: "npm run dev" }));
    expect(statusText(s, 200)).toContain("1 job running");
    s = run(s, ev({ type: "job_end", id: "job-2", status: "SIGTERM", reason: "killed", command: "tsc -w" }));
    expect(statusText(s, 200)).not.toContain("running");
    expect(s.items.map((i) => i.text)).toEqual([
      "job-1 exited 0: npm run dev",
      "job-2 exited SIGTERM (killed): tsc -w",
    ]);
  });
});
