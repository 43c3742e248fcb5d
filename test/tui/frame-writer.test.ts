// The live region's writer, fed into a terminal emulator (@xterm/headless): what it leaves on
// screen and in the scrollback, and how many bytes it writes (R-UI-22, R-UI-13).
import xterm from "@xterm/headless";
import { describe, expect, it } from "vitest";
import { stripAnsi, style, width } from "../../src/tui/ansi.js";
import type { Reflow } from "../../src/tui/caret-park.js";
import { createFrameWriter } from "../../src/tui/frame-writer.js";

/**
 * A terminal as a pty shows it (`convertEol` is the tty's ONLCR, which raw mode keeps). `width`
 * is what the writer is told the terminal's width is (by default the emulator's own).
 */
function terminal(cols: number, rows: number) {
  const term = new xterm.Terminal({ cols, rows, scrollback: 1000, allowProposedApi: true, convertEol: true });
  let bytes = 0;
  let pending = Promise.resolve();
  const t = {
    term,
    told: undefined as number | undefined,
    bytes: () => bytes,
    write(text: string) {
      bytes += Buffer.byteLength(text);
      pending = pending.then(() => new Promise<void>((r) => term.write(text, r)));
    },
    /** Resizes the emulator once everything written so far is drawn. */
    async resize(c: number) {
      await pending;
      term.resize(c, rows);
    },
    /** Scrollback and screen, right-trimmed, without the empty rows at the end. */
    async lines() {
      await pending;
      const b = term.buffer.active;
      const out: string[] = [];
      for (let i = 0; i < b.length; i++) out.push(b.getLine(i)?.translateToString(true) ?? "");
      while (out.length > 0 && out.at(-1) === "") out.pop();
      return out;
    },
  };
  const writer = createFrameWriter(t, () => t.told ?? term.cols);
  return { ...t, writer };
}

/** A live region as Ink hands it over: rows and a final newline. */
const frame = (...lines: string[]) => `${lines.join("\n")}\n`;
const box = (cols: number, text: string) => [
  `┌${"─".repeat(cols - 2)}┐`,
  `│ ${text.padEnd(cols - 4)} │`,
  `└${"─".repeat(cols - 2)}┘`,
];

describe("the frame writer", () => {
  it("parks the cursor on the caret the UI names and draws the next frame from there (R-UI-26)", async () => {
    const t = terminal(40, 10);
    t.write("scrollback\n");
    t.writer.setCursorPosition({ x: 4, y: 2 });
    t.writer(frame("answer", ...box(20, "› ab"), "status"));
    await t.lines();
    // Row 1 of the screen is the frame's first line: the caret is on its third line, column 4.
    expect([t.term.buffer.active.cursorX, t.term.buffer.active.cursorY]).toEqual([4, 3]);
    t.writer.setCursorPosition({ x: 5, y: 2 });
    t.writer(frame("answer", ...box(20, "› abc"), "status"));
    expect(await t.lines()).toEqual(["scrollback", "answer", ...box(20, "› abc"), "status"]);
    expect([t.term.buffer.active.cursorX, t.term.buffer.active.cursorY]).toEqual([5, 3]);
    // No caret named: back below the frame, where Ink writes above it after clear().
    t.writer.setCursorPosition(undefined);
    t.writer(frame("answer 2", ...box(20, "› abc"), "status"));
    await t.lines();
    expect([t.term.buffer.active.cursorX, t.term.buffer.active.cursorY]).toEqual([0, 6]);
    t.writer.setCursorPosition({ x: 5, y: 2 });
    t.writer(frame("answer 2", ...box(20, "› abc"), "status"));
    t.writer.clear();
    t.write("printed\n");
    t.writer(frame("answer 3", ...box(20, "› abc"), "status"));
    expect(await t.lines()).toEqual(["scrollback", "printed", "answer 3", ...box(20, "› abc"), "status"]);
  });

  it("rewrites only the lines that changed and leaves the region whole", async () => {
    const t = terminal(40, 10);
    t.write("scrollback 1\nscrollback 2\n");
    t.writer(frame("answer: Hel", "⠋ Thinking", ...box(20, "›"), "status"));
    const before = t.bytes();
    t.writer(frame("answer: Hello", "⠋ Thinking", ...box(20, "›"), "status"));
    // The changed row and a few escapes, not the frame (~120 bytes).
    expect(t.bytes() - before).toBeLessThan(40);
    t.writer(frame("answer: Hello", "⠙ Thinking", ...box(20, "›"), "status"));
    t.writer(frame("answer: Hello", "⠙ Thinking", ...box(20, "› x"), "status", "a menu row"));
    t.writer(frame("answer: Hello", "⠙ Thinking", ...box(20, "› x")));
    expect(t.writer(frame("answer: Hello", "⠙ Thinking", ...box(20, "› x")))).toBe(false);
    expect(await t.lines()).toEqual([
      "scrollback 1",
      "scrollback 2",
      "answer: Hello",
      "⠙ Thinking",
      ...box(20, "› x"),
    ]);
    // Leaving keeps the last frame, the cursor below it.
    t.writer.done();
    t.write("bye\n");
    expect((await t.lines()).slice(-2)).toEqual(["└──────────────────┘", "bye"]);
  });

  it("puts what Ink writes above the region (after clear) in the scrollback once", async () => {
    const t = terminal(30, 8);
    for (let i = 1; i <= 20; i++) {
      t.writer.clear();
      t.write(`committed ${i}\n`);
      t.writer(frame(`⠋ Thinking ${i}`, ...box(30, "›"), "status"));
    }
    const lines = await t.lines();
    expect(lines.slice(0, 20)).toEqual(Array.from({ length: 20 }, (_, i) => `committed ${i + 1}`));
    expect(lines.slice(20)).toEqual(["⠋ Thinking 20", ...box(30, "›"), "status"]);
  });

  it("erases a frame on the screen's first row without an erase-down from its first cell", async () => {
    // tmux (scroll-on-clear) takes that erase for a screen clear and scrolls the rows into the
    // scrollback, where they stay; the top row is reached after narrowing a nearly empty screen.
    const sent: string[] = [];
    const t = terminal(40, 10);
    const writer = createFrameWriter(
      {
        write(text: string) {
          sent.push(text);
          t.write(text);
        },
      },
      () => 40,
    );
    writer(frame("○ bash  seq 1 9", "  ⎿ 3", "Running bash"));
    writer.clear();
    writer(frame("● bash  seq 1 9 · 1.0s"));
    expect(sent.join("")).not.toContain("\r\x1b[J");
    expect(await t.lines()).toEqual(["● bash  seq 1 9 · 1.0s"]);
  });

  it("a terminal narrowed between frames, before the UI lays out at the new width, keeps no stale rows", async () => {
    const t = terminal(60, 12);
    t.writer(frame("⠋ Thinking 1", ...box(60, "›"), "s".repeat(60)));
    await t.resize(40);
    // Frames still laid out at 60 columns (the resize event not yet seen), then at 40.
    for (let i = 2; i <= 4; i++) {
      t.writer.clear();
      t.write(`committed ${i}\n`);
      t.writer(frame(`⠋ Thinking ${i}`, ...box(60, "›"), "s".repeat(60)));
    }
    t.writer(frame("⠋ Thinking 5", ...box(40, "›"), "s".repeat(40)));
    expect(await t.lines()).toEqual([
      "committed 2",
      "committed 3",
      "committed 4",
      "⠋ Thinking 5",
      ...box(40, "›"),
      "s".repeat(40),
    ]);
  });

  it("streams an answer below a long transcript at a few bytes per character, the screen always the frame", async () => {
    const t = terminal(60, 20);
    for (let i = 1; i <= 200; i++) t.write(`transcript line ${i}\n`);
    const answer =
      "The writer keeps the previous frame and rewrites only what changed — ✓ done, 漢字 too. ".repeat(6);
    const spin = ["⠋", "⠙", "⠹", "⠸"];
    let frames = 0;
    const start = t.bytes();
    for (let shown = 1; shown <= answer.length; shown += 4) {
      // A token (4 characters) a frame, the stream wrapped at 56 columns (rows are added as it
      // grows), the token count changes every frame and the spinner every fourth.
      const text = answer.slice(0, shown);
      const rows = text.match(/.{1,56}/g) ?? [];
      const progress = `${style.green(spin[(frames >> 2) % 4])} ${style.green("Thinking")}${style.gray(` · ↓ ${frames} tokens · Esc to interrupt`)}`;
      const lines = [...rows, progress, ...box(60, `› ${frames % 7 === 0 ? "x" : ""}`), style.gray("status")];
      t.writer(frame(...lines));
      frames++;
      if (frames % 9 === 0) {
        await t.lines();
        const screen = await t.lines();
        expect(screen.slice(-lines.length)).toEqual(lines.map((l) => stripAnsi(l)));
        expect(screen.at(-lines.length - 1)).toBe("transcript line 200");
      }
    }
    const perChar = (t.bytes() - start) / answer.length;
    // Every frame redrawn whole would be ~650 bytes a frame, ~160 a character (here ~32).
    expect(perChar).toBeLessThan(40);
  });
  // A frame parked on its caret, then the emulator resized between frames: the writer must find
  // the frame again from the parked cell the way xterm.js re-wrapped it ("screen-row": the cursor
  // keeps its screen row; tmux's way, "cell", is checked in a real tmux in resize-tmux.test.ts).
  // Counted the other way, the erase starts a row off: a scrollback line lost, or a stale row.
  it.each<[string, Reflow, number, number, boolean]>([
    ["narrowed 60 → 40, screen full", "screen-row", 40, 20, true],
    ["narrowed 60 → 25, screen full", "screen-row", 25, 20, true],
    ["narrowed 60 → 40, screen not full", "screen-row", 40, 20, false],
    ["made lower 20 → 9, screen full", "screen-row", 60, 9, true],
    ["made lower 20 → 5, screen not full", "screen-row", 60, 5, false],
    ["made taller 20 → 26, screen full", "screen-row", 60, 26, true],
    ["widened 60 → 80, screen full", "screen-row", 80, 20, true],
    ["narrowed 60 → 40 and made lower 20 → 17, screen full", "screen-row", 40, 17, true],
    ["narrowed 60 → 30 and made lower 20 → 12, screen full", "screen-row", 30, 12, true],
  ])(
    "parked on the caret, %s: the next frame loses no scrollback row and leaves none stale",
    async (_, reflow, cols, rows, full) => {
      const term = new xterm.Terminal({
        cols: 60,
        rows: 20,
        scrollback: 1000,
        allowProposedApi: true,
        convertEol: true,
      });
      let pending = Promise.resolve();
      const sink = {
        write: (text: string) =>
          (pending = pending.then(() => new Promise<void>((r) => term.write(text, r)))),
      };
      const writer = createFrameWriter(sink, () => term.cols, { rows: () => term.rows, reflow });
      const scrollback = Array.from({ length: full ? 30 : 2 }, (_, i) => `scrollback ${i + 1}`);
      sink.write(scrollback.map((l) => `${l}\n`).join(""));
      const typed = "› 日本語🙂 typed";
      const composer = (w: number) => [
        box(w, "")[0],
        `│ ${typed}${" ".repeat(w - 4 - width(typed))} │`,
        box(w, "")[2],
      ];
      const live = (w: number, spin: string) => [`${spin} Thinking`, ...composer(w), "s".repeat(w - 5)];
      writer.setCursorPosition({ x: 9, y: 2 });
      writer(frame(...live(60, "⠋")));
      await pending;
      expect([term.buffer.active.cursorX, term.buffer.active.cursorY]).toEqual([9, full ? 16 : 4]);
      term.resize(cols, rows);
      // As Ink does on a resize: the frame cleared, a committed row written above, the frame again.
      writer.clear();
      sink.write("committed\n");
      writer(frame(...live(cols, "⠙")));
      await pending;
      const b = term.buffer.active;
      const all: string[] = [];
      for (let i = 0; i < b.length; i++) all.push(b.getLine(i)?.translateToString(true) ?? "");
      while (all.at(-1) === "") all.pop();
      expect(all.filter((l) => l !== "")).toEqual([...scrollback, "committed", ...live(cols, "⠙")]);
      // The cursor back on the caret named: column 9 of the composer's text row.
      expect(b.cursorX).toBe(9);
      expect(b.getLine(b.baseY + b.cursorY)?.translateToString(true)).toBe(composer(cols)[1]);
    },
  );
  it("leaving after a resize while parked draws the frame again and leaves the cursor below it", async () => {
    const term = new xterm.Terminal({
      cols: 60,
      rows: 20,
      scrollback: 100,
      allowProposedApi: true,
      convertEol: true,
    });
    let pending = Promise.resolve();
    const sink = {
      write: (text: string) => (pending = pending.then(() => new Promise<void>((r) => term.write(text, r)))),
    };
    const writer = createFrameWriter(sink, () => term.cols, { rows: () => term.rows, reflow: "screen-row" });
    sink.write(Array.from({ length: 30 }, (_, i) => `scrollback ${i + 1}\n`).join(""));
    writer.setCursorPosition({ x: 4, y: 2 });
    writer(frame("⠋ Thinking", ...box(60, "› ab"), "s".repeat(55)));
    await pending;
    term.resize(40, 20);
    writer.done();
    sink.write("bye\n");
    await pending;
    const b = term.buffer.active;
    const all: string[] = [];
    for (let i = 0; i < b.length; i++) all.push(b.getLine(i)?.translateToString(true) ?? "");
    const kept = all.filter((l) => l !== "");
    // The last frame as it was, wrapped at the new width; nothing of the scrollback lost.
    expect(kept.slice(0, 31)).toEqual([
      ...Array.from({ length: 30 }, (_, i) => `scrollback ${i + 1}`),
      "⠋ Thinking",
    ]);
    expect(kept.at(-1)).toBe("bye");
    expect(kept.filter((l) => l.startsWith("┌"))).toHaveLength(1);
  });
});
