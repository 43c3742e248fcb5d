// The figures a statusLine command gets beside the UI state (R-UI-23): a write over an existing
// file counts the lines it replaced, read before the call runs; a retry's wait is no API time.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EngineEvent } from "../../src/engine/door/events.js";
import { StatusLineTotals } from "../../src/tui/status-line-totals.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs("tern-sl-totals-");
});
afterEach(() => dirs.cleanup());

const presentation = { title: "", kind: "edit" as const, locations: [] };

describe("statusLine totals", () => {
  it("a write over a file counts what it replaced; a failed call counts nothing", () => {
    const file = join(dirs.workspace, "a.txt");
    writeFileSync(file, "1\n2\n3\n4\n");
    const totals = new StatusLineTotals(dirs.workspace);
    const args = JSON.stringify({ path: "a.txt", content: "1\nTWO\n3\n" });
    totals.event({ type: "tool_call", id: "w", name: "write_file", arguments: args, presentation });
    // The tool runs after the call is published: the old text was read already.
    writeFileSync(file, "1\nTWO\n3\n");
    totals.event({
      type: "tool_result",
      id: "w",
      name: "write_file",
      outcome: "ok",
      content: "Overwrote a.txt",
    });
    expect(totals.lines).toEqual({ added: 1, removed: 2 });
    const edit = JSON.stringify({ path: "a.txt", old_string: "3", new_string: "x\ny" });
    totals.event({ type: "tool_call", id: "e", name: "edit_file", arguments: edit, presentation });
    totals.event({ type: "tool_result", id: "e", name: "edit_file", outcome: "error", content: "no" });
    expect(totals.lines).toEqual({ added: 1, removed: 2 });
    expect(readFileSync(file, "utf8")).toBe("1\nTWO\n3\n");
  });

  it("API time runs from a round's start to its answer, a retry's wait left out", () => {
    let now = 0;
    const totals = new StatusLineTotals(dirs.workspace, () => now);
    const at = (t: number, event: EngineEvent) => {
      now = t;
      totals.event(event);
    };
    at(100, { type: "round_start", turn: 1, round: 1 });
    at(300, {
      type: "retry_scheduled",
      attempt: 1,
      delay_ms: 1000,
      reason: "server",
      status: 500,
      message: "",
    });
    now = 1000; // still waiting
    expect(totals.apiDuration()).toBe(200);
    at(1450, { type: "assistant_message", text: "", reasoning: "", tool_calls: [], finish_reason: "stop" });
    expect(totals.apiDuration()).toBe(350);
  });
});
