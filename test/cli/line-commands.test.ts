// The line-mode slash commands drive the real engine: model switch, yolo once, rewind, export.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runLineCommand } from "../../src/cli/line-commands.js";
import { registerWorkflowCommands } from "../../src/commands/workflow-commands.js";
import { useHarness } from "../engine/harness.js";
import { lineHost } from "./line-support.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";

const h = useHarness();

/** A line-mode context over a live session whose approvals all get `answer`. */
async function lineContext(answer: "approved" | "denied" = "denied") {
  const t = await h.start({
    // /diff, /undo and /redo read the workspace's snapshots.
    checkpoints: true,
    hooks: { approve: async (calls) => new Map(calls.map((c) => [c.id, answer])) },
  });
  const { ctx, printed } = lineHost(h, t.session);
  return { t, ctx, printed };
}

describe("line-mode slash commands", () => {
  it("switches the model for the next request and records it", async () => {
    const { t, ctx, printed } = await lineContext();
    expect(await runLineCommand("/model local/other-2", ctx)).toBe(true);
    expect(printed.at(-1)).toBe("model: local/other-2");
    h.provider.enqueue(openaiText("hi"));
    await t.prompt("hello");
    expect(h.provider.requests[0].body.model).toBe("other-2");
    expect(await runLineCommand("/model nonsense", ctx)).toBe(true);
    expect(printed.at(-1)).toMatch(/nonsense/);
  });

  it("/yolo once approves the next turn's calls only", async () => {
    const { t, ctx } = await lineContext();
    await runLineCommand("/yolo once", ctx);
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo yes" } }]),
      openaiText("a"),
    );
    await t.prompt("one");
    h.provider.enqueue(
      openaiToolCalls([{ id: "c2", name: "bash", args: { command: "echo no" } }]),
      openaiText("b"),
    );
    await t.prompt("two");
    const outcomes = t.events.filter((e) => e.type === "tool_result").map((e: any) => e.outcome);
    expect(outcomes).toEqual(["ok", "denied"]);
  });

  it("/yolo switches the session's mode through the Session's set_mode command", async () => {
    const { t, ctx, printed } = await lineContext();
    expect(t.session.status().mode).toBe("ask");
    await runLineCommand("/yolo", ctx);
    expect(t.session.status().mode).toBe("yolo");
    expect(printed.at(-1)).toMatch(/every tool call of this session is approved/);
    for (const id of ["c1", "c2"]) {
      h.provider.enqueue(
        openaiToolCalls([{ id, name: "bash", args: { command: "echo ok" } }]),
        openaiText("done"),
      );
      await t.prompt(id);
    }
    const outcomes = t.events.filter((e) => e.type === "tool_result").map((e: any) => e.outcome);
    expect(outcomes).toEqual(["ok", "ok"]);
  });

  it("shares the UI's table: /stats, /history and a did-you-mean for a near miss", async () => {
    const { t, ctx, printed } = await lineContext();
    h.provider.enqueue(openaiText("hi"));
    await t.prompt("a prompt");
    await runLineCommand("/history", ctx);
    expect(printed.at(-1)).toMatch(/^\s+1 {2}a prompt\n\/history N shows turn N whole$/);
    await runLineCommand("/history 1", ctx);
    expect(printed.at(-1)).toMatch(/^turn 1\n› a prompt\nhi\n— turn 1 · completed/);
    await runLineCommand("/stats", ctx);
    expect(printed.at(-1)).toBe("no tool calls yet");
    await runLineCommand("/hisotry", ctx);
    expect(printed.at(-1)).toBe(
      "unknown command /hisotry: did you mean /history? (/help lists the commands)",
    );
  });

  it("/diff, /undo and /redo from the shared table show and take back a turn's file changes", async () => {
    const { t, ctx, printed } = await lineContext("approved");
    h.provider.enqueue(
      openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "made.txt", content: "hello\n" } }]),
      openaiText("written"),
    );
    await t.prompt("make a file");
    const file = join(h.dirs.workspace, "made.txt");
    expect(existsSync(file)).toBe(true);
    await runLineCommand("/diff", ctx);
    expect(printed.at(-1)).toMatch(/made\.txt[\s\S]*\+hello/);
    await runLineCommand("/undo", ctx);
    expect(printed.at(-1)).toMatch(/^undid 1 turn \(1\); 1 path restored\n.*made\.txt/);
    expect(existsSync(file)).toBe(false);
    await runLineCommand("/redo", ctx);
    expect(printed.at(-1)).toMatch(/^redid 1 turn \(1\)/);
    expect(readFileSync(file, "utf8")).toBe("hello\n");
    await runLineCommand("/undo 0", ctx);
    expect(printed.at(-1)).toBe("usage: /undo [N]");
  });

  it("/rewind offers to restore the files too, and /rewind N files does", async () => {
    const { t, ctx, printed } = await lineContext("approved");
    h.provider.enqueue(
      openaiText("nothing written"),
      openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "made.txt", content: "hi\n" } }]),
      openaiText("written"),
    );
    await t.prompt("first");
    await t.prompt("make a file");
    const file = join(h.dirs.workspace, "made.txt");
    await runLineCommand("/rewind 1", ctx);
    expect(printed.slice(-2)).toEqual([
      "turns after 1 withdrawn from the context",
      "the files still hold what turn 2 changed: /rewind 1 files restores them too (/diff shows the changes)",
    ]);
    expect(existsSync(file)).toBe(true);
    await runLineCommand("/rewind 1 files", ctx);
    expect(printed.at(-1)).toMatch(/^rewound 1 turn \(2\); 1 path restored\n.*deleted\s+made\.txt/);
    expect(existsSync(file)).toBe(false);
  });

  it("/rewind 0 says every turn is withdrawn", async () => {
    const { t, ctx, printed } = await lineContext("approved");
    h.provider.enqueue(openaiText("hello"));
    await t.prompt("first");
    await runLineCommand("/rewind 0", ctx);
    expect(printed.at(-1)).toBe("every turn withdrawn from the context");
  });

  it("/rewind N files takes back exactly the turns after N, however many", async () => {
    const { t, ctx, printed } = await lineContext("approved");
    for (const n of [1, 2, 3]) {
      h.provider.enqueue(
        openaiToolCalls([{ id: `w${n}`, name: "write_file", args: { path: `${n}.txt`, content: "x\n" } }]),
        openaiText(`wrote ${n}`),
      );
      await t.prompt(`turn ${n}`);
    }
    await runLineCommand("/rewind 1 files", ctx);
    expect(printed.at(-1)).toMatch(/^rewound 2 turns \(2, 3\); 2 paths restored\n/);
    expect([1, 2, 3].map((n) => existsSync(join(h.dirs.workspace, `${n}.txt`)))).toEqual([
      true,
      false,
      false,
    ]);
  });

  it("rewinds, refuses a turn that does not exist, exports, and quits", async () => {
    const { t, ctx, printed } = await lineContext();
    h.provider.enqueue(openaiText("first"), openaiText("second"), openaiText("third"));
    await t.prompt("one");
    await t.prompt("two");
    await runLineCommand("/rewind 1", ctx);
    await runLineCommand("/rewind 7", ctx);
    expect(printed.slice(-2)).toEqual([
      "turns after 1 withdrawn from the context",
      "rewind: no turn 7 (turns 0..2)",
    ]);
    await t.prompt("three");
    const users = h.provider.requests
      .at(-1)!
      .body.messages.filter((m: any) => m.role === "user")
      .map((m: any) => m.content);
    expect(users).toEqual(["one", "three"]);
    await runLineCommand("/export", ctx);
    expect(printed.at(-1)).toContain("two");
    await runLineCommand("/todos", ctx);
    expect(printed.at(-1)).toBe("no todos");
    await runLineCommand("/nope", ctx);
    expect(printed.at(-1)).toBe("unknown command /nope: /help lists the commands");
    expect(await runLineCommand("/quit", ctx)).toBe(false);
  });

  it("/thinking sets the level of the next request and keeps it across /model", async () => {
    const { t, ctx, printed } = await lineContext();
    ctx.config.models["local/mock-1"] = { reasoning: true };
    ctx.config.models["local/other-2"] = { reasoning: true };
    await runLineCommand("/thinking", ctx);
    expect(printed.at(-1)).toMatch(/^thinking: off/);
    await runLineCommand("/thinking extreme", ctx);
    expect(printed.at(-1)).toBe("/thinking: must be off, low, medium, high, got 'extreme'");
    await runLineCommand("/thinking low", ctx);
    expect(printed.at(-1)).toBe("thinking: low");
    h.provider.enqueue(openaiText("a"), openaiText("b"));
    await t.prompt("one");
    expect(h.provider.requests[0].body.reasoning_effort).toBe("low");
    await runLineCommand("/model local/other-2", ctx);
    await t.prompt("two");
    expect(h.provider.requests[1].body).toMatchObject({ model: "other-2", reasoning_effort: "low" });
  });

  it("a custom command's model: runs its turn on that model; the next turn runs on the session's (R-WF-2)", async () => {
    const { t, ctx, printed } = await lineContext();
    mkdirSync(join(h.dirs.workspace, ".tern", "commands"), { recursive: true });
    writeFileSync(
      join(h.dirs.workspace, ".tern", "commands", "quick.md"),
      "---\nmodel: local/small-3\n---\nQuick: $ARGUMENTS\n",
    );
    registerWorkflowCommands({ cwd: h.dirs.workspace, home: h.dirs.home, config: ctx.config });
    h.provider.enqueue(openaiText("small"), openaiText("own"));
    await runLineCommand("/quick hi", ctx);
    expect(t.session.status().model.id).toBe("local/mock-1");
    await t.prompt("next");
    expect(h.provider.requests.map((r) => r.body.model)).toEqual(["small-3", "mock-1"]);
    expect(printed.join("\n")).not.toMatch(/notice/);
  });
});
