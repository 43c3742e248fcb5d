// §10 and R-BIG-1 through the built CLI. The session folder removed mid-turn (a
// bash call's `rm -rf` of TERN_HOME's sessions): the turn ends with a disk-class error saying
// what happened and a `turn_end`, never `tern: internal error: ENOENT …`. Two runaway grep
// patterns in one batch run side by side, so they hold the turn one grep timer, not two, and the
// same runaway search asked again fails at once (R-BIG-1: a runaway pattern never holds a turn
// more than 10 s; shown by order and results, not by a clock).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { recordLines, ternRun, useE2E } from "./tools-support.js";

const e = useE2E();

describe("the session folder removed mid-turn", () => {
  const removal = () =>
    openaiToolCalls([{ id: "rm", name: "bash", args: { command: `rm -rf '${e.dirs.home}/sessions'` } }]);

  it("--json: an error of class disk naming it, then turn_end failed; no internal error", async () => {
    e.provider.enqueue(removal(), openaiText("after"));
    const r = await ternRun(e, ["--yes"], "go");
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/internal error/);
    const error = r.events.find((ev) => ev.type === "error");
    expect(error).toMatchObject({ class: "disk" });
    expect(error.message).toMatch(/the session folder was removed .*record\.jsonl \(ENOENT\)/);
    expect(r.end).toMatchObject({ stop_reason: "failed", error: { class: "disk" } });
  }, 60_000);

  it("text mode: one clear line on stderr, exit 1", async () => {
    e.provider.enqueue(removal(), openaiText("after"));
    const r = await e.run(
      ["run", "--model", "openai/mock-1", "--base-url", e.provider.baseUrl, "--yes", "go"],
      {
        OPENAI_API_KEY: "sk-test-key",
      },
    );
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/internal error|at \w+ \(/);
    expect(r.stderr).toMatch(/the session folder was removed/);
  }, 60_000);
});

describe("runaway grep patterns in one batch (R-BIG-1)", () => {
  it("run side by side: the second starts before the first one's timer ends", async () => {
    writeFileSync(join(e.dirs.workspace, "a.txt"), `${"a".repeat(60)}!\n`);
    const runaway = (id: string) => ({ id, name: "grep", args: { pattern: "^(a+)+$" } });
    e.provider.enqueue(openaiToolCalls([runaway("g1"), runaway("g2")]), openaiText("moved on"));
    // The built-in engine (ripgrep hidden from the PATH): a JavaScript regex that backtracks.
    const r = await ternRun(e, [], "search", { timeoutMs: 120_000, env: { PATH: "/nonexistent-bin" } });
    expect(r.end).toMatchObject({ stop_reason: "completed" });
    for (const id of ["g1", "g2"])
      expect(r.events.find((ev) => ev.type === "tool_result" && ev.id === id).content).toMatch(
        /grep stopped after 10s without finishing/,
      );
    const order = recordLines(e)
      .filter((l) => (l.type === "tool_start" || l.type === "tool_result") && /^g\d$/.test(l.id))
      .map((l) => `${l.type === "tool_start" ? "start" : "result"} ${l.id}`);
    expect(order.slice(0, 2).sort()).toEqual(["start g1", "start g2"]);
  }, 120_000);

  it("the same runaway search asked again in a later round fails at once instead of running 10 s more", async () => {
    writeFileSync(join(e.dirs.workspace, "a.txt"), `${"a".repeat(60)}!\n`);
    const runaway = (id: string) => ({ id, name: "grep", args: { pattern: "^(a+)+$" } });
    e.provider.enqueue(
      openaiToolCalls([runaway("g1")]),
      openaiToolCalls([runaway("g2")]),
      openaiText("moved on"),
    );
    const r = await ternRun(e, [], "search", { timeoutMs: 120_000, env: { PATH: "/nonexistent-bin" } });
    expect(r.end).toMatchObject({ stop_reason: "completed" });
    const content = (id: string) => r.events.find((ev) => ev.type === "tool_result" && ev.id === id).content;
    expect(content("g1")).toMatch(/grep stopped after 10s without finishing/);
    expect(content("g2")).toMatch(
      /^grep not run: the same search stopped after 10s without finishing \d+s ago/,
    );
  }, 120_000);
});
