// The UI while sub-agents work (R-AGENT-1): the status line counts the running `task` calls, and a
// child's progress (its task call's tool_progress) is the progress row's detail.
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../src/engine/door/events.js";
import { statusText } from "../../src/tui/live-view.js";
import { reduce } from "../../src/tui/reducer.js";
import { phaseText } from "../../src/tui/status-text.js";
import { initialState, type UiState } from "../../src/tui/ui-state.js";

const ev = (event: EngineEvent) => ({ type: "event" as const, event, now: 1000 });
const start = () =>
  initialState({ model: "openai/mock-1", sessionId: "s1", contextWindow: 100000, thinking: "off" } as never);
const call = (id: string): EngineEvent => ({
  type: "tool_call",
  id,
  name: "task",
  arguments: "{}",
  presentation: { title: "explore: look", kind: "think", locations: [] },
});

describe("sub-agents in the UI", () => {
  it("the status line counts running task calls; the progress row shows the child's newest call", () => {
    let s: UiState = [ev({ type: "turn_start", turn: 1 }), ev(call("t1")), ev(call("t2"))].reduce(
      reduce,
      start(),
    );
    expect(statusText(s, 300)).toContain("2 agents running");
    s = reduce(
      s,
      ev({ type: "tool_progress", id: "t1", name: "task", progress: 3, message: "explore: grep TODO" }),
    );
    expect(phaseText(s.phase!, 1000)).toBe("Running task 3 explore: grep TODO · 0s");
    s = reduce(s, ev({ type: "tool_result", id: "t1", name: "task", outcome: "ok", content: "found" }));
    expect(statusText(s, 300)).toContain("1 agent running");
    s = reduce(s, ev({ type: "tool_result", id: "t2", name: "task", outcome: "ok", content: "found" }));
    expect(statusText(s, 300)).not.toContain("agent");
  });
});
