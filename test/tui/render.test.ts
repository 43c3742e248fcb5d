// What the Ink UI draws, in a real pseudo-terminal: tool activity, safe approvals, interrupted
// answers, markdown, a live region that never clears the screen, and resize.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { approve, countLines, screenClears, styleOf, userTexts, useTui } from "./support.js";

const t = useTui();

/** A stream of `n` numbered lines, one frame per line. */
function numbered(n: number, delayMs: number) {
  const s = openaiStream();
  for (let i = 1; i <= n; i++) s.text(`answer line ${i}\n\n`);
  return s.finish("stop").usage({ prompt_tokens: 10, completion_tokens: n }).delay(delayMs).build();
}

describe("tool activity", () => {
  it("shows each call as a readable line with its output tail, and an edit as a coloured diff", async () => {
    writeFileSync(join(t.dirs.workspace, "a.txt"), "alpha\nbeta\ngamma\n");
    t.provider.enqueue(
      openaiToolCalls([
        { id: "c1", name: "bash", args: { command: "seq 1 9" } },
        { id: "c2", name: "read_file", args: { path: "a.txt" } },
      ]),
      openaiToolCalls([
        { id: "c3", name: "edit_file", args: { path: "a.txt", old_string: "beta", new_string: "BETA" } },
      ]),
      openaiText("edited"),
    );
    const vt = await t.start(["--yes"]);
    await vt.type("go");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    const text = vt.text();
    expect(text).toContain("● bash  seq 1 9");
    expect(text).toMatch(/⎿ … 5 earlier lines · Ctrl\+O shows all\n\s+6\n\s+7\n\s+8\n\s+9/);
    expect(text).toContain("● read_file  a.txt");
    expect(text).toContain("● edit_file  a.txt");
    expect(text).toMatch(/- beta\n\s+\+ BETA/);
    expect(text).not.toContain('{"command"');
    expect(styleOf(vt, "- beta")?.fg).toBe(1);
    expect(styleOf(vt, "+ BETA")?.fg).toBe(2);
    expect(readFileSync(join(t.dirs.workspace, "a.txt"), "utf8")).toBe("alpha\nBETA\ngamma\n");
  });

  it("Ctrl+O shows the whole output of the newest call", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "seq 101 130" } }]),
      openaiText("listed"),
    );
    const vt = await t.start(["--yes"]);
    await vt.type("count");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(vt.text()).not.toMatch(/^\s+101$/m);
    await vt.write("\x0f");
    await vt.waitFor(/^\s+101\n\s+102$/m);
    expect(countLines(vt.lines(), "130")).toBe(2);
  });
});

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
    expect(vt.screen().join("\n")).toContain("a always: edit_file on b.txt for the rest of this session");
    await approve(vt, "y");
    await vt.waitFor("done");
  });
});

describe("interrupting", () => {
  it("Esc stops the turn, keeps the partial answer on screen marked, and keeps it out of the context", async () => {
    t.provider.enqueue(
      openaiStream()
        .text("partial words ")
        .text("and more ")
        .text("never shown")
        .finish("stop")
        .delay(700)
        .build(),
      openaiText("fresh answer"),
    );
    const vt = await t.start();
    await vt.type("talk");
    await vt.press("enter");
    await vt.waitFor("partial words");
    await vt.press("escape");
    await vt.waitFor(/— turn 1 · cancelled/);
    const text = vt.text();
    expect(text).toMatch(/partial words[\s\S]*⏹ interrupted/);
    expect(
      countLines(vt.lines(), "⏹ interrupted · the partial answer above is not part of the conversation"),
    ).toBe(1);
    await vt.type("next");
    await vt.press("enter");
    await vt.waitFor("fresh answer");
    const messages = JSON.stringify(t.provider.requests[1].body.messages);
    expect(messages).not.toContain("partial words");
    expect(userTexts(t.provider.requests[1].body).at(-1)).toBe("next");
  });
});

describe("markdown", () => {
  it("renders headings, bold, code with syntax colour and tables", async () => {
    t.provider.enqueue(
      openaiText(
        "# Plan\n\nThis is **important**.\n\n```js\nconst x = 1;\n```\n\n| col | val |\n|-----|-----|\n| a   | 1   |\n",
      ),
    );
    const vt = await t.start();
    await vt.type("md");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    const lines = vt.lines().map((l) => l.trimEnd());
    expect(lines).toContain("Plan");
    expect(lines).toContain("This is important.");
    expect(lines).toContain("│ const x = 1;");
    expect(lines).toContain("│ col │ val │");
    expect(vt.text()).not.toMatch(/\*\*|^# |```/m);
    expect(styleOf(vt, "important")?.bold).toBe(true);
    // `const` is a keyword: it has a colour of its own.
    expect(styleOf(vt, "const x")?.fg).toBe(5);
  });
});

describe("the screen is never cleared", () => {
  it("a big paste and a long streamed answer never clear the screen or scrollback, and all of it is kept", async () => {
    t.provider.enqueue(numbered(120, 15));
    const vt = await t.start();
    const paste = Array.from({ length: 200 }, (_, i) => `pasted line ${i}`).join("\n");
    await vt.write(`\x1b[200~${paste}\x1b[201~`);
    await vt.waitForScreen(/more lines\)/);
    // Ctrl+U clears the composer; then a long answer.
    await vt.write("\x03");
    await vt.type("long");
    await vt.press("enter");
    // While it streams, the beginning is already in the scrollback (R-UI-13).
    await vt.waitFor("answer line 60");
    expect(vt.text()).toContain("answer line 1\n");
    await vt.waitFor(/— turn 1 · completed/, 20_000);
    expect(screenClears(vt.raw)).toBe(0);
    const lines = vt.lines().map((l) => l.trim());
    for (let i = 1; i <= 120; i++) expect(lines.filter((l) => l === `answer line ${i}`)).toHaveLength(1);
  });
});

describe("the side panel", () => {
  it("a /btw answer taller than the screen is cut to fit, never clearing the screen", async () => {
    const answer = Array.from({ length: 80 }, (_, i) => `side line ${i + 1}`).join("\n\n");
    t.provider.enqueue(openaiText(answer));
    const vt = await t.start();
    await vt.type("/btw tell me a lot");
    await vt.press("enter");
    await vt.waitForScreen(/btw: tell me a lot \(1\/1\)/);
    const screen = vt.screen().join("\n");
    expect(screen).toContain("side line 1");
    expect(screen).toMatch(/… \d+ more rows/);
    expect(screen).toContain("Esc/Enter/Space close");
    expect(screenClears(vt.raw)).toBe(0);
    await vt.press("escape");
    await vt.waitForGone("btw: tell me a lot");
    expect(vt.text()).not.toContain("side line 1");
  });
});

describe("resize", () => {
  it("a resize to 60 columns leaves no stale frame, even mid-stream", async () => {
    // Frames far apart: the resize lands between two of them, as a person's would, not while
    // a frame is still in the pipe (a race no program can win: it draws before it is told).
    t.provider.enqueue(numbered(7, 600));
    const vt = await t.start();
    await vt.type("stream please");
    await vt.press("enter");
    await vt.waitFor("answer line 3");
    await vt.resize(60, 30);
    await vt.waitFor(/— turn 1 · completed/, 20_000);
    await new Promise((r) => setTimeout(r, 200));
    const lines = vt.lines();
    // One composer box and one status line in scrollback + screen: no stale or duplicated frames.
    expect(lines.filter((l) => l.includes("┌"))).toHaveLength(1);
    expect(lines.filter((l) => l.includes("└"))).toHaveLength(1);
    expect(lines.filter((l) => /· session \S+$/.test(l.trimEnd()))).toHaveLength(1);
    expect(lines.filter((l) => l.includes("Thinking"))).toHaveLength(0);
    // The new frame is drawn at the new width.
    expect(lines.find((l) => l.includes("┌"))!.trimEnd()).toHaveLength(60);
    expect(screenClears(vt.raw)).toBe(0);
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
        "Enter send · Alt+Enter newline · Esc interrupt · Ctrl+C clear/exit · /help commands",
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
    expect(first).toContain("Esc interrupt · Ctrl+C clear/exit · /help commands");
    expect(first).toMatch(/· \$\? · session/);
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
