// More slash commands of the Ink UI in a real pseudo-terminal (R-UI-6): /rewind, /retry after a
// failed turn, /yolo once, /stats, /history N and /export json.
import { describe, expect, it } from "vitest";
import { openaiError, openaiText, openaiToolCalls } from "../support/openai-script.js";
import type { VTerm } from "../support/vterm.js";
import { approve, countLines, userTexts, useTui } from "./support.js";

const t = useTui();

async function command(vt: VTerm, text: string): Promise<void> {
  await vt.type(text);
  await vt.press("enter");
}

async function turn(vt: VTerm, prompt: string, label: RegExp): Promise<void> {
  await command(vt, prompt);
  await vt.waitFor(label);
}

/** The tool results a recorded Chat Completions request carries, oldest first. */
const toolResults = (body: any): string[] =>
  body.messages.filter((m: any) => m.role === "tool").map((m: any) => String(m.content));

describe("tern interactive /rewind and /retry", () => {
  it("/rewind 1 withdraws the later turns from the next request", async () => {
    t.provider.enqueue(openaiText("one"), openaiText("two"), openaiText("three"));
    const vt = await t.start();
    await turn(vt, "first prompt", /— turn 1 · completed/);
    await turn(vt, "second prompt", /— turn 2 · completed/);
    expect(userTexts(t.provider.requests[1].body)).toEqual(["first prompt", "second prompt"]);
    await command(vt, "/rewind 1");
    await vt.waitFor("turns after 1 withdrawn from the context");
    await turn(vt, "third prompt", /— turn 3 · completed/);
    expect(userTexts(t.provider.requests[2].body)).toEqual(["first prompt", "third prompt"]);
    // A turn that does not exist is refused with a message, not a crash.
    await command(vt, "/rewind 9");
    await vt.waitFor(/rewind: no turn 9/);
  });

  it("/retry after a failed turn re-sends the same user message under the same turn number", async () => {
    t.provider.enqueue(
      openaiError(500, { error: { message: "upstream broke", type: "server_error" } }),
      openaiText("worked the second time"),
    );
    const vt = await t.start([], { retry: { maxRetries: 0, baseDelaySeconds: 0.01 } });
    await command(vt, "flaky request");
    await vt.waitFor(/— turn 1 · failed/);
    expect(vt.text()).toContain("upstream broke");
    expect(t.provider.requests).toHaveLength(1);
    await command(vt, "/retry");
    await vt.waitFor("worked the second time");
    await vt.waitFor(/— turn 1 · completed/);
    expect(vt.text()).not.toMatch(/— turn 2 ·/);
    // The same single user message, not a copy of it; the prompt line is not printed again.
    expect(userTexts(t.provider.requests[1].body)).toEqual(["flaky request"]);
    expect(countLines(vt.lines(), "› flaky request")).toBe(1);
  });
});

describe("tern interactive /yolo once", () => {
  it("approves the tool calls of the next turn only", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo yolo-ran" } }]),
      openaiText("first done"),
      openaiToolCalls([{ id: "c2", name: "bash", args: { command: "echo asked-again" } }]),
      openaiText("second done"),
    );
    const vt = await t.start();
    await command(vt, "/yolo once");
    await vt.waitFor("every tool call of the next turn is approved");
    await turn(vt, "run it", /— turn 1 · completed · rounds=1 · tools=1/);
    expect(vt.text()).not.toContain("Allow this tool call?");
    expect(toolResults(t.provider.requests[1].body).join("\n")).toContain("yolo-ran");
    await command(vt, "run it again");
    // The next turn asks again; denying keeps the command from running.
    await vt.waitForScreen("Allow this tool call?");
    await approve(vt, "n");
    await vt.waitFor(/— turn 2 · completed · rounds=1 · tools=1/);
    expect(toolResults(t.provider.requests[3].body).join("\n")).not.toContain("asked-again");
  });
});

describe("tern interactive report commands", () => {
  it("/stats shows each tool's share of the calls", async () => {
    t.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "bash", args: { command: "echo a" } },
        { id: "c2", name: "bash", args: { command: "echo b" } },
        { id: "c3", name: "glob", args: { pattern: "*" } },
      ]),
      openaiText("three tools ran"),
    );
    const vt = await t.start(["--yes"]);
    await command(vt, "/stats");
    await vt.waitFor("no tool calls yet");
    await turn(vt, "use tools", /— turn 1 · completed · rounds=1 · tools=3/);
    await command(vt, "/stats");
    await vt.waitFor(/^3 tool calls\s*\n\s*bash +2 {2}67%\s*\n\s*glob +1 {2}33%$/m);
  });

  it("/history lists the turns; /history 1 shows turn 1 whole (seed 002)", async () => {
    t.provider.enqueue(openaiText("the first answer"), openaiText("two"));
    const vt = await t.start();
    await turn(vt, "older prompt", /— turn 1 · completed/);
    await turn(vt, "newest prompt", /— turn 2 · completed/);
    await command(vt, "/history");
    await vt.waitFor(/^\s+1 {2}older prompt\s*\n\s+2 {2}newest prompt$/m);
    await command(vt, "/history 1");
    await vt.waitFor(/^turn 1\s*\n› older prompt\s*\nthe first answer\s*\n— turn 1 · completed/m);
    await command(vt, "/history 0");
    await vt.waitFor("usage: /history [N]");
    await command(vt, "/history 9");
    await vt.waitFor("no turn 9 (turns 1..2)");
  });

  it("/export json prints the session and its records as JSON", async () => {
    t.provider.enqueue(openaiText("exported answer"));
    const vt = await t.start();
    await turn(vt, "export me", /— turn 1 · completed/);
    await command(vt, "/export json");
    await vt.waitFor(/^}$/m);
    const lines = vt.lines();
    const from = lines.lastIndexOf("{");
    const block = lines.slice(from, lines.indexOf("}", from) + 1).join("\n");
    // Long values wrap at the terminal's width, so the block is checked piece by piece.
    // The block can be on screen before the rest of its frame (the status line) is.
    const session = (await vt.waitForScreen(/· session \S+\s*$/m)).match(/· session (\S+)\s*$/m)![1];
    expect(block).toMatch(new RegExp(`^ {2}"session": \\{\\n {4}"id": "${session}",`, "m"));
    expect(block).toMatch(/^ {2}"records": \[$/m);
    expect(block).toContain('"type": "session_start"');
    expect(block).toContain('"type": "user_prompt"');
    expect(block).toContain('"text": "export me"');
    expect(block).toContain('"exported answer"');
  });
});
