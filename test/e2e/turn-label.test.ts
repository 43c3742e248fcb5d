// R-UI-9 through the built CLI: the turn label's `rounds=N` counts the rounds that asked for
// tools (the turn_end event's `tool_rounds`), also a round a limit stopped the turn after.
import { describe, expect, it } from "vitest";
import { VTerm } from "../support/vterm.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { ternRun, useE2E } from "./tools-support.js";

const e = useE2E();
const readCall = (id: string) => openaiToolCalls([{ id, name: "glob", args: { pattern: "*" } }]);

describe("rounds=N counts the rounds that asked for tools", () => {
  it("the line mode: a two-tool-round turn says rounds=2, a one-round turn that ran a tool rounds=1", async () => {
    e.provider.enqueue(readCall("a"), readCall("b"), openaiText("done"), readCall("c"));
    const vt = new VTerm({
      home: e.dirs.home,
      cwd: e.dirs.workspace,
      args: [
        "--plain",
        "--max-model-calls",
        "1",
        "--model",
        "openai/mock-1",
        "--base-url",
        e.provider.baseUrl,
      ],
      env: { OPENAI_API_KEY: "sk-test-key" },
    });
    try {
      await vt.waitFor(/^› $/m, 20_000);
      const answer = async (text: string, until: RegExp) => {
        await vt.type(text);
        await vt.press("enter");
        await vt.waitFor(until, 20_000);
      };
      // One model call per allowance: turn 1 is granted two more rounds (y, y) and runs two tool rounds.
      await answer("first", /Limit reached \(model_calls 1\/1\)/);
      await answer("y", /Limit reached \(model_calls 2\/2\)/);
      await answer("y", /— turn 1 · completed · rounds=2 · tools=2/);
      // Turn 2 asks for a tool in its only round; the limit then stops it (n).
      await answer("second", /› second[\s\S]*Limit reached \(model_calls 1\/1\)/);
      await answer("n", /— turn 2 · model_call_limit_reached · rounds=1 · tools=1/);
    } finally {
      await vt.close();
    }
  }, 60_000);

  it("the turn_end event's tool_rounds: a round stopped by the tool-call limit still counts", async () => {
    e.provider.enqueue(readCall("a"));
    const run = await ternRun(e, ["--max-tool-calls", "0"]);
    expect(run.end).toMatchObject({ stop_reason: "tool_call_limit_reached", rounds: 1, tool_rounds: 1 });
  });

  it("tern run --json: a one-round turn that ran a tool has tool_rounds 1", async () => {
    e.provider.enqueue(readCall("a"), openaiText("never asked"));
    const run = await ternRun(e, ["--max-model-calls", "1"]);
    expect(run.end).toMatchObject({
      stop_reason: "model_call_limit_reached",
      rounds: 1,
      tool_rounds: 1,
      tool_calls: 1,
    });
  });
});
