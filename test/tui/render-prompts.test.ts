// The Ink UI's prompts and edges in a real pseudo-terminal: safe approvals, a terminal that gets
// shorter, the progress row, the first screen and the resume hint on exit.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { approve, countLines, screenClears, useTui } from "./support.js";

const t = useTui();

describe("approval", () => {
  it("keys typed as the prompt appears never answer it; each call of a batch is answered on its own", async () => {
    t.provider.enqueue(
      openaiStream()
        .text("")
        .toolCall({ id: "c1", name: "bash", args: { command: "touch one" } })
        .toolCall({ id: "c2", name: "bash", args: { command: "touch two" } })
        .finish("tool_calls")
        .delay(150)
        .build(),
      openaiText("batch done"),
      openaiToolCalls([{ id: "c3", name: "bash", args: { command: "touch three" } }]),
      openaiText("asked again"),
    );
    const vt = await t.start();
    await vt.type("go");
    await vt.press("enter");
    // Keep typing "a" (always) and "y" until the prompt is on screen, as someone mid-sentence would.
    let seen = false;
    const typing = (async () => {
      while (!seen) {
        vt.pty.write("a");
        await new Promise((r) => setTimeout(r, 15));
      }
    })();
    await vt.waitForScreen("Allow tool call 1 of 2?");
    seen = true;
    await typing;
    await new Promise((r) => setTimeout(r, 600));
    // Still asking the first call: nothing typed ahead answered it.
    expect(vt.screen().join("\n")).toContain("Allow tool call 1 of 2?");
    expect(t.provider.requests).toHaveLength(1);
    await vt.write("y");
    await vt.waitForScreen("Allow tool call 2 of 2?");
    await vt.write("n");
    await vt.waitFor("batch done");
    // The denied call reads as a tool line, never as an internal id.
    expect(vt.text()).toMatch(/● bash {2}touch two\n\s+⎿ denied by user/);
    expect(vt.text()).not.toMatch(/denied c\d/);
    const results = t.provider.requests[1].body.messages.filter((m: any) => m.role === "tool");
    expect(results.map((m: any) => m.content)).toEqual([
      expect.stringContaining("no output"),
      "denied by user",
    ]);
    // Nothing granted "always": the next bash call asks again.
    await vt.type("again");
    await vt.press("enter");
    await vt.waitForScreen("Allow this tool call?");
    await approve(vt, "y");
    await vt.waitFor("asked again");
  });

  it("shows a long command whole (wrapped, not cut) and an edit as a diff", async () => {
    writeFileSync(join(t.dirs.workspace, "b.txt"), "one\ntwo\n");
    const command = `echo start-${"x".repeat(400)}-END-OF-COMMAND`;
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command } }]),
      openaiToolCalls([{ id: "c2", name: "read_file", args: { path: "b.txt" } }]),
      openaiToolCalls([
        { id: "c3", name: "edit_file", args: { path: "b.txt", old_string: "two", new_string: "TWO" } },
      ]),
      openaiText("done"),
    );
    const vt = await t.start();
    await vt.type("go");
    await vt.press("enter");
    const screen = await vt.waitForScreen("-END-OF-COMMAND");
    const body = screen
      .split("\n")
      .filter((l) => l.startsWith("  │ "))
      .map((l) => l.slice(4).trimEnd())
      .join("");
    expect(body).toBe(command);
    await approve(vt, "y");
    await vt.waitForScreen(/Allow this tool call\?[\s\S]*│ - two\n\s+│ \+ TWO/);
    expect(vt.screen().join("\n")).toMatch(/a always: edit_file on \S*b\.txt for this session/);
    await approve(vt, "y");
    await vt.waitFor("done");
  });
});

describe("a shorter terminal", () => {
  it("getting shorter under a tall approval prompt never clears the screen or the scrollback", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: `echo ${"y".repeat(1500)}` } }]),
      openaiText("done"),
    );
    const vt = await t.start();
    await vt.type("go");
    await vt.press("enter");
    await vt.waitForScreen("Allow this tool call?");
    await vt.resize(100, 12);
    await vt.waitForScreen(/rows 1-\d+ of \d+/);
    expect(vt.screen().join("\n")).toContain("a always:");
    await approve(vt, "y");
    await vt.waitFor("done");
    expect(screenClears(vt.raw)).toBe(0);
    // The first screen is still in the scrollback, once.
    expect(
      countLines(
        vt.lines(),
        "Enter send · Alt+Enter newline · Esc interrupt · Ctrl+C clear/exit · /help more",
      ),
    ).toBe(1);
  });
});

describe("progress row, first screen and exit", () => {
  it("says Running <tool> with its time once approved, with the turn's time and tokens", async () => {
    t.provider.enqueue(
      openaiStream()
        .text("let me check")
        .toolCall({ id: "c1", name: "bash", args: { command: "sleep 2" } })
        .finish("tool_calls")
        .usage({ prompt_tokens: 10, completion_tokens: 42 })
        .build(),
      openaiText("slept"),
    );
    const vt = await t.start();
    await vt.type("nap");
    await vt.press("enter");
    await vt.waitForScreen("Waiting for approval");
    await approve(vt, "y");
    const row = await vt.waitForScreen(/Running bash · \d+s · turn \d+s · ↓ 42 tokens · Esc to interrupt/);
    expect(row).not.toMatch(/Thinking/);
    await vt.waitFor("slept");
    await vt.waitForGone("Running bash");
  });

  it("names version, model, workspace and keys first; shows $? for an unknown price; prints how to resume", async () => {
    t.provider.enqueue(openaiText("hi"));
    const vt = await t.start();
    const first = vt.screen().join("\n");
    expect(first).toMatch(/tern \d+\.\d+\.\d+ · local\/mock-1 · \S*ws/);
    expect(first).toContain("Esc interrupt · Ctrl+C clear/exit · /help more");
    expect(first).toMatch(/· \$\? · ask · session/);
    expect(first).not.toContain("$0.0000");
    await vt.type("hello");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    const session = first.match(/· session (\S+)\s*$/m)![1];
    await vt.type("/quit");
    await vt.press("enter");
    expect(await vt.exited).toBe(0);
    await vt.waitFor(`Resume this session with: tern --resume ${session}`);
  });
});
