// What the Ink UI draws, in a real pseudo-terminal: tool activity, interrupted answers, markdown,
// a live region that never clears the screen, the side panel and resize.
import { THEMES } from "../../src/tui/themes.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import { countLines, screenClears, styleOf, userTexts, useTui } from "./support.js";

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
    expect(styleOf(vt, "- beta")?.fg).toBe(THEMES.dark.colours.red);
    expect(styleOf(vt, "+ BETA")?.fg).toBe(THEMES.dark.colours.green);
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

describe("a 20,000-line output", () => {
  const WORDS =
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa quebec";
  it("counts its real lines, keeps the model's note from the person, and Ctrl+O reaches the end", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: `seq -f 'row %g ${WORDS}' 1 20000` } }]),
      openaiText("listed"),
    );
    const vt = await t.start(["--yes"]);
    await vt.type("count");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    // The tail's label counts the lines really above it: 20,000 less the 2 shown (each wraps to 2 rows).
    expect(vt.text()).toContain("… 19998 earlier lines · Ctrl+O shows all");
    // The finished call says how long it ran (R-UI-18).
    expect(vt.text()).toMatch(/● bash {2}seq -f .*· \d+\.\ds$/m);
    expect(vt.text()).not.toContain("read_file offset/limit");
    await vt.write("\x0f");
    await vt.waitFor(/lines not kept \(\d+ characters\) …/);
    await vt.waitFor(/^\s+row 20000 alpha/m);
    const text = vt.text();
    expect(text).not.toMatch(/more rows/);
    expect(text).not.toContain("read_file offset/limit");
    // Shown from row 1, the cut counted in lines: head + cut + tail = 20,000.
    expect(text).toMatch(/^\s+row 1 alpha/m);
    const head = Math.max(
      ...[...text.matchAll(/^\s+row (\d+) alpha/gm)].map((m) => Number(m[1])).filter((n) => n < 10_000),
    );
    const cut = Number(/… (\d+) lines not kept/.exec(text)![1]);
    const tailFirst = Math.min(
      ...[...text.matchAll(/^\s+row (\d+) alpha/gm)].map((m) => Number(m[1])).filter((n) => n > 10_000),
    );
    expect(head + cut + 1).toBe(tailFirst);
    // Wrapped at word boundaries: every row of the view is made of whole words.
    const allowed = new Set([...WORDS.split(" "), "row"]);
    const rows = vt.lines().filter((l) => /^ {4}\S/.test(l) && !l.includes("not kept"));
    expect(rows.length).toBeGreaterThan(100);
    for (const row of rows)
      for (const word of row.trim().split(/\s+/)) expect(allowed.has(word) || /^\d+$/.test(word)).toBe(true);
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
    expect(styleOf(vt, "const x")?.fg).toBe(THEMES.dark.colours.magenta);
  });
});

describe("the screen is never cleared", () => {
  it("a big paste and a long streamed answer never clear the screen or scrollback, and all of it is kept", async () => {
    t.provider.enqueue(numbered(120, 15));
    const vt = await t.start();
    const paste = Array.from({ length: 200 }, (_, i) => `pasted line ${i}`).join("\n");
    await vt.write(`\x1b[200~${paste}\x1b[201~`);
    // A big paste is one placeholder in the composer (R-UI-14).
    await vt.waitForScreen("[pasted 200 lines]");
    await vt.write("\x03");
    await vt.waitForGone("[pasted 200 lines]");
    // Typed lines (Ctrl+J) taller than the composer's share show a window around the cursor.
    await vt.write(Array.from({ length: 60 }, (_, i) => `typed line ${i}`).join("\n"));
    await vt.waitForScreen(/more lines\)/);
    // Ctrl+C clears the composer; then a long answer.
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

describe("the completion menu", () => {
  it("fits a short terminal with the composer and status line, never clearing the screen", async () => {
    const vt = await t.start();
    await vt.resize(100, 10);
    await vt.type("/");
    await vt.waitForScreen("Esc close");
    const screen = vt.screen().join("\n");
    expect(screen).toMatch(/› \//);
    expect(screen).toMatch(/\d+\/\d+ · ↑\/↓ choose/);
    expect(screen).toMatch(/context \d+% · \d+ tokens/);
    await vt.press("down");
    await vt.press("down");
    await vt.press("escape");
    await vt.waitForGone("Esc close");
    expect(screenClears(vt.raw)).toBe(0);
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
    // A frame can reach the terminal in more than one read: wait for its last panel row too.
    await vt.waitForScreen(/Esc\/Enter\/Space close/);
    const screen = vt.screen().join("\n");
    expect(screen).toContain("side line 1");
    // Cut to a window the keys scroll, saying which rows show.
    expect(screen).toMatch(/rows 1-\d+ of \d+ · ↑\/↓ PgUp\/PgDn scroll/);
    expect(screen).toContain("Esc/Enter/Space close");
    expect(screenClears(vt.raw)).toBe(0);
    await vt.press("escape");
    await vt.waitForGone("btw: tell me a lot");
    expect(vt.text()).not.toContain("side line 1");
  });
});

describe("resize", () => {
  it("a resize to 60 columns leaves no stale frame, even mid-stream", async () => {
    // The stream holds after line 3 until the resize is done: it lands between two frames, as a
    // person's would, not while a frame is still in the pipe (a race no program can win: it
    // draws before it is told). Frames still come apart after it.
    let resized!: () => void;
    const resizeDone = new Promise<void>((resolve) => (resized = resolve));
    const s = openaiStream();
    for (let i = 1; i <= 7; i++) {
      s.text(`answer line ${i}\n\n`);
      if (i === 3) s.hold(resizeDone);
    }
    t.provider.enqueue(
      s.finish("stop").usage({ prompt_tokens: 10, completion_tokens: 7 }).delay(100).build(),
    );
    const vt = await t.start();
    await vt.type("stream please");
    await vt.press("enter");
    await vt.waitFor("answer line 3");
    await vt.resize(60, 30);
    resized();
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
