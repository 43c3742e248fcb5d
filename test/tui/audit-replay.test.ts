// A re-check of the resumed screen (R-UI-17, R-UI-19): a batch whose calls finished in
// reverse is replayed in the batch's call order, as it was drawn live; and a call refused before
// it ran (an edit of a file not read) shows no duration borrowed from an earlier call of the
// same id (providers reuse ids across turns).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { TranscriptLine } from "../../src/engine/session.js";
import { replayRecord } from "../../src/tui/replay.js";
import { runCli } from "../support/cli.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useTui } from "./support.js";

const t = useTui();
const present = (c: { name: string }) => ({ title: c.name, kind: "other" as const, locations: [] });

async function headless(args: string[]): Promise<void> {
  const run = await runCli(
    ["run", "--yes", "--model", "local/mock-1", "--base-url", t.provider.baseUrl, ...args],
    { home: t.dirs.home, cwd: t.dirs.workspace },
  );
  expect(run.code).toBe(0);
}

describe("a resumed session replays calls as they were drawn", () => {
  it("draws a batch finished in reverse in its call order", async () => {
    writeFileSync(join(t.dirs.workspace, "a.txt"), "one\n");
    t.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "bash", args: { command: "sleep 0.6; echo first-call" } },
        { id: "c2", name: "bash", args: { command: "sleep 0.3; echo second-call" } },
        { id: "c3", name: "bash", args: { command: "echo third-call" } },
      ]),
      openaiText("batch over"),
    );
    await headless(["run three"]);
    t.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "edit_file", args: { path: "a.txt", old_string: "one", new_string: "two" } },
      ]),
      openaiText("edit over"),
    );
    await headless(["--continue", "edit it"]);
    const vt = await t.start(["--continue"]);
    const text = await vt.waitFor("edit over");
    const at = (s: string) => text.indexOf(`● bash  ${s}`);
    expect(at("sleep 0.6; echo first-call")).toBeGreaterThan(-1);
    expect(at("sleep 0.6; echo first-call")).toBeLessThan(at("sleep 0.3; echo second-call"));
    expect(at("sleep 0.3; echo second-call")).toBeLessThan(at("echo third-call"));
    expect(text).toMatch(/● edit_file {2}a\.txt/);
  });
});

describe("a resumed failed turn", () => {
  it("shows the error it ended on and that /retry runs it again", async () => {
    t.provider.setFallback({
      status: 400,
      body: JSON.stringify({ error: { message: "bad thing", type: "invalid_request_error" } }),
    });
    const run = await runCli(
      ["run", "--model", "local/mock-1", "--base-url", t.provider.baseUrl, "doomed prompt"],
      {
        home: t.dirs.home,
        cwd: t.dirs.workspace,
      },
    );
    expect(run.code).not.toBe(0);
    const vt = await t.start(["--continue"]);
    const text = await vt.waitFor(/— turn 1 · failed/);
    expect(text).toMatch(/error: .*bad thing · \/retry runs the turn again\n— turn 1 · failed/);
  });
});

describe("replayRecord of a call refused before it ran", () => {
  it("shows no duration borrowed from an earlier call of the same id", () => {
    const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
    const line = (seq: number, ts: number, rest: Record<string, unknown>) =>
      ({ v: 1, seq, ts: at(ts), ...rest }) as unknown as TranscriptLine;
    const call = (name: string) => ({ id: "call_0", name, arguments: "{}" });
    const text = (t: string) => [{ type: "text", text: t }];
    const lines = [
      line(1, 0, { type: "user_prompt", turn: 1, content: text("one") }),
      line(2, 1, { type: "assistant_message", turn: 1, text: "", toolCalls: [call("bash")] }),
      line(3, 1, { type: "tool_start", turn: 1, id: "call_0", name: "bash" }),
      line(4, 2, {
        type: "tool_result",
        turn: 1,
        id: "call_0",
        name: "bash",
        outcome: "ok",
        content: text("hi"),
      }),
      line(5, 20, { type: "user_prompt", turn: 2, content: text("edit") }),
      line(6, 21, { type: "assistant_message", turn: 2, text: "", toolCalls: [call("edit_file")] }),
      line(7, 21, {
        type: "tool_result",
        turn: 2,
        id: "call_0",
        name: "edit_file",
        outcome: "error",
        content: text("no"),
      }),
    ];
    const tools = replayRecord(lines, present).items.filter((i) => i.kind === "tool");
    expect(tools.map((i) => i.tool?.ms)).toEqual([1000, undefined]);
  });
});
