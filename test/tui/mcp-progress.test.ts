// MCP progress notifications in the progress row (R-UI-7, R-EXT): `Running <tool> 2/3 step 2 · 4s`,
// back to Thinking when the result arrives.
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../src/engine/door/events.js";
import { reduce } from "../../src/tui/reducer.js";
import { phaseText } from "../../src/tui/status-text.js";
import type { UiAction } from "../../src/tui/ui-actions.js";
import { initialState } from "../../src/tui/ui-state.js";

const ev = (event: EngineEvent): UiAction => ({ type: "event", event, now: 0 });

describe("MCP progress in the progress row", () => {
  it("shows progress, total and message beside the running tool", () => {
    let s = initialState({ model: "local/m", sessionId: "s1", contextWindow: 1000 });
    s = reduce(
      s,
      ev({
        type: "tool_call",
        id: "c1",
        name: "fx__slow",
        arguments: "{}",
        presentation: { title: "", kind: "other", locations: [] },
      }),
    );
    expect(phaseText(s.phase!, 0)).toBe("Running fx__slow · 0s");
    s = reduce(
      s,
      ev({ type: "tool_progress", id: "c1", name: "fx__slow", progress: 2, total: 3, message: "step 2" }),
    );
    expect(phaseText(s.phase!, 0)).toBe("Running fx__slow 2/3 step 2 · 0s");
    s = reduce(s, ev({ type: "tool_progress", id: "c1", name: "fx__slow", progress: 40 }));
    expect(phaseText(s.phase!, 0)).toBe("Running fx__slow 40 · 0s");
    s = reduce(s, ev({ type: "tool_result", id: "c1", name: "fx__slow", outcome: "ok", content: "done" }));
    expect(phaseText(s.phase!, 0)).toBe("Thinking");
  });
});
