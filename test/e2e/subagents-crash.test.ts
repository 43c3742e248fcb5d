// A crash while a sub-agent runs, through the built CLI (R-REC amended 2026-12-07, R-REC-8): tern is killed
// (SIGKILL) while a sub-agent's turn runs. `tern run --continue` then resumes the person's
// session, not the child's (whose record was written last); that resume closes the child's cut-off
// turn (`aborted`, its running call `interrupted`) and bills it in the ledger, so the ledger holds
// every request that returned usage without anyone resuming the child.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { killLeftovers, runArgs, startTern } from "./process-support.js";
import { scriptBySession, sessionRecords, splitSessions } from "./subagents-support.js";
import { ternRun, useE2E } from "./tools-support.js";

const e = useE2E();
afterEach(killLeftovers);

describe("a crash while a sub-agent runs", () => {
  it("--continue resumes the parent, and the resume closes and bills the child's open turn", async () => {
    scriptBySession(e, {
      "do it": [
        openaiToolCalls([{ id: "t1", name: "task", args: { description: "part", prompt: "part one" } }]),
        openaiText("back", { prompt_tokens: 20, completion_tokens: 3 }),
      ],
      "part one": [
        openaiToolCalls([{ id: "c1", name: "bash", args: { command: "touch child-running; sleep 60" } }], {
          prompt_tokens: 100,
          completion_tokens: 7,
        }),
      ],
    });
    const t = startTern(e, runArgs(e, ["--yes"]));
    await t.waitFor(() => existsSync(join(e.dirs.workspace, "child-running")), "the child's call");
    t.child.kill("SIGKILL");
    await t.exit;
    const before = splitSessions(sessionRecords(e));
    expect(before.children).toHaveLength(1);
    const child = before.children[0];
    expect(child.lines.some((l) => l.type === "turn_end")).toBe(false);

    const again = await ternRun(e, ["--continue", "--yes"], "again");
    expect(again.code, again.stderr).toBe(0);
    // The person's session, not the child's.
    expect(again.events.find((ev) => ev.type === "session")).toMatchObject({
      id: before.parent.id,
      resumed: true,
    });
    expect(again.end).toMatchObject({ stop_reason: "completed" });

    const after = sessionRecords(e).get(child.id)!;
    expect(after.lines.find((l) => l.type === "tool_result" && l.id === "c1")).toMatchObject({
      outcome: "interrupted",
    });
    expect(after.lines.find((l) => l.type === "turn_end")).toMatchObject({
      stopReason: "aborted",
      modelCalls: 1,
    });

    const metrics = await e.run(["metrics", "--json"]);
    expect(metrics.code).toBe(0);
    const { rows } = JSON.parse(metrics.stdout);
    expect(rows.find((r: any) => r.session === child.id)).toMatchObject({
      parent: before.parent.id,
      stopReason: "aborted",
      prompt: 100,
      completion: 7,
    });
    // Every request that returned usage is in exactly one row: 10+100+20 prompt tokens.
    expect(rows.reduce((n: number, r: any) => n + r.prompt, 0)).toBe(130);
    // And a rebuilt ledger agrees with the live one.
    const rebuilt = await e.run(["metrics", "--rebuild", "--json"]);
    expect(rebuilt.code).toBe(0);
    expect(JSON.parse(rebuilt.stdout).rows.find((r: any) => r.session === child.id)).toMatchObject({
      stopReason: "aborted",
      prompt: 100,
    });
  }, 90_000);
});
