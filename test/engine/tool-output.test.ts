// The live output of a running call (R-UI-18) is published at most every 100 ms per call, with
// the real line count and the end of the output, and never after the call's result.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { INTERVAL_MS, TAIL_CHARS, ToolOutputStream } from "../../src/engine/turn/tool-output.js";

describe("ToolOutputStream", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends a flood of output at most once per interval, with the whole count and the tail", () => {
    const events: { tail: string; lines: number }[] = [];
    const stream = new ToolOutputStream((e) => events.push(e));
    for (let i = 1; i <= 1000; i++) {
      stream.push("c1", "bash", `line ${i}\n`);
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(INTERVAL_MS);
    // 1000 ms of output: about ten events, not a thousand.
    expect(events.length).toBeGreaterThanOrEqual(9);
    expect(events.length).toBeLessThanOrEqual(12);
    const last = events.at(-1)!;
    expect(last.lines).toBe(1000);
    expect(last.tail.length).toBeLessThanOrEqual(TAIL_CHARS);
    expect(last.tail.endsWith("line 1000\n")).toBe(true);
  });

  it("counts a partial last line, and sends nothing once the result is in", () => {
    const events: { lines: number }[] = [];
    const stream = new ToolOutputStream((e) => events.push(e));
    stream.push("c1", "bash", "one\ntw");
    vi.advanceTimersByTime(INTERVAL_MS);
    expect(events.at(-1)?.lines).toBe(2);
    stream.push("c1", "bash", "o\nthree");
    stream.end("c1");
    vi.advanceTimersByTime(INTERVAL_MS * 3);
    expect(events).toHaveLength(1);
  });
});
