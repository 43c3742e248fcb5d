// The terminal's hidden cursor on the composer's caret while a turn streams (R-UI-26), in a real
// pseudo-terminal read by xterm.js: an input method opens its window where the cursor is, so it
// must be on the caret's cell after every frame, with CJK and emoji typed while the answer
// streams, and across resizes, which must lose no scrollback line and repeat none (R-UI-13).
import { Unicode11Addon } from "@xterm/addon-unicode11";
import { describe, expect, it, vi } from "vitest";
import { openaiStream, openaiText, openaiToolCalls } from "../support/openai-script.js";
import type { VTerm } from "../support/vterm.js";
import { approve, useTui } from "./support.js";

const t = useTui();
const LINES = 90;

function gate(): { open: () => void; opened: Promise<void> } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

/** LINES one-line paragraphs, the stream held after each line in `holdAfter` until it opens. */
function answer(delayMs: number, holdAfter = new Map<number, Promise<unknown>>()) {
  const s = openaiStream();
  for (let i = 1; i <= LINES; i++) {
    s.text(`answer line ${i}\n\n`);
    const hold = holdAfter.get(i);
    if (hold) s.hold(hold);
  }
  return s.finish("stop").usage({ prompt_tokens: 10, completion_tokens: LINES }).delay(delayMs).build();
}

/** The composer's caret: the cell drawn inverse on a row of the composer's box, on the screen. */
function caretCell(vt: VTerm): { x: number; y: number } | undefined {
  const b = vt.term.buffer.active;
  for (let y = 0; y < vt.term.rows; y++) {
    const line = b.getLine(b.viewportY + y);
    if (!line?.translateToString(true).startsWith("│")) continue;
    for (let x = 0; x < vt.term.cols; x++) if (line.getCell(x)?.isInverse()) return { x, y };
  }
  return undefined;
}

/** The terminal's cursor and the caret's cell, with whether a turn is still running. */
function sample(vt: VTerm) {
  const b = vt.term.buffer.active;
  return {
    cursor: { x: b.cursorX, y: b.cursorY },
    caret: caretCell(vt),
    streaming: vt.screen().some((l) => /Esc (to|deny &) interrupt/.test(l)),
  };
}

/** Waits until the cursor is on the caret's cell while the turn still runs (`streaming`). */
async function cursorOnCaret(vt: VTerm, streaming: boolean, composer?: RegExp): Promise<void> {
  await vi.waitFor(
    () => {
      const s = sample(vt);
      if (composer) expect(vt.screen().join("\n")).toMatch(composer);
      expect(s.caret).toBeDefined();
      expect({ cursor: s.cursor, streaming: s.streaming }).toEqual({ cursor: s.caret, streaming });
    },
    { timeout: 10_000, interval: 20 },
  );
}

/** Scrollback + screen from the prompt to the turn's end line, blank rows left out. */
function transcript(vt: VTerm): string[] {
  const lines = vt.lines().map((l) => l.trimEnd());
  const from = lines.findIndex((l) => l.includes("› stream please"));
  const to = lines.findIndex((l) => /— turn 1 · completed/.test(l));
  return lines
    .slice(from, to + 1)
    .filter((l) => l.trim() !== "")
    .map((l) => l.replace(/\d+(\.\d+)?s\b/g, "Ns"));
}

/**
 * Emoji two columns wide, as in today's terminals and as tern measures them (xterm.js's own
 * tables are Unicode 6's, where 🙂 takes one column and every row after it would be drawn a
 * column off). A ZWJ sequence is still one column a member there, so none is typed here.
 */
function modernWidths(vt: VTerm): VTerm {
  vt.term.loadAddon(new Unicode11Addon());
  vt.term.unicode.activeVersion = "11";
  return vt;
}

async function ask(vt: VTerm): Promise<void> {
  await vt.type("stream please");
  await vt.press("enter");
}

describe("the terminal's cursor on the caret while a turn streams", () => {
  it("follows the caret through CJK and emoji typed mid-stream, and at the idle prompt after", async () => {
    const [first, second] = [gate(), gate()];
    t.provider.enqueue(
      answer(
        3,
        new Map([
          [20, first.opened],
          [50, second.opened],
        ]),
      ),
    );
    const vt = modernWidths(await t.start());
    await ask(vt);
    await vt.waitFor("answer line 20");
    // The stream held, the spinner still drawing: the empty composer's caret.
    await cursorOnCaret(vt, true);
    await vt.write("日本語の");
    await cursorOnCaret(vt, true, /│ › 日本語の/);
    first.open();
    await vt.waitFor("answer line 50", 20_000);
    await vt.write("🙂e\u0301x");
    await cursorOnCaret(vt, true, /│ › 日本語の🙂e\u0301x/);
    for (let i = 0; i < 4; i++) await vt.press("left");
    // Four clusters back (x, e + U+0301, 🙂, の): on の (4 + 3 × 2 columns).
    await vi.waitFor(() => expect(vt.inverse().trim()).toBe("の"), { timeout: 10_000, interval: 20 });
    await cursorOnCaret(vt, true);
    expect(sample(vt).cursor.x).toBe(10);
    second.open();
    await vt.waitFor(/— turn 1 · completed/, 20_000);
    // Idle again: still on the caret, the text kept.
    await cursorOnCaret(vt, false, /│ › 日本語の🙂e\u0301x/);
    expect(sample(vt).cursor.x).toBe(10);
  }, 40_000);

  it("narrowed, widened and made lower mid-stream: no scrollback line lost or repeated, the cursor on the caret", async () => {
    const gates = [gate(), gate(), gate()];
    t.provider.enqueue(
      answer(0),
      answer(
        3,
        new Map([
          [25, gates[0].opened],
          [50, gates[1].opened],
          [70, gates[2].opened],
        ]),
      ),
    );
    const still = await t.start();
    await still.resize(64, 24);
    await ask(still);
    await still.waitFor(/— turn 1 · completed/, 20_000);
    const expected = transcript(still);
    expect(expected.filter((l) => l.startsWith("answer line"))).toHaveLength(LINES);

    const vt = modernWidths(await t.start());
    await ask(vt);
    await vt.waitFor("answer line 25");
    await vt.write("漢字🙂 caret here");
    for (let i = 0; i < 6; i++) await vt.press("left");
    await vi.waitFor(() => expect(vt.inverse().trim()).toBe("t"), { timeout: 10_000, interval: 20 });
    await cursorOnCaret(vt, true, /│ › 漢字🙂 caret here/);
    await vt.resize(70, 30);
    gates[0].open();
    await vt.waitFor("answer line 50", 20_000);
    await cursorOnCaret(vt, true);
    await vt.resize(90, 30);
    gates[1].open();
    await vt.waitFor("answer line 70", 20_000);
    await cursorOnCaret(vt, true);
    await vt.resize(64, 24);
    await cursorOnCaret(vt, true);
    expect(vt.inverse().trim()).toBe("t");
    gates[2].open();
    await vt.waitFor(/— turn 1 · completed/, 20_000);
    await cursorOnCaret(vt, false, /│ › 漢字🙂 caret here/);
    const got = transcript(vt);
    expect(got.filter((l) => /Esc to interrupt|^│|^[┌└]/.test(l))).toEqual([]);
    expect(got).toEqual(expected);
  }, 60_000);
  it("stays on the caret while an approval and a picker are drawn over the composer", async () => {
    t.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "bash", args: { command: "echo approved-output" } }]),
      openaiText("after the tool"),
    );
    const vt = modernWidths(await t.start());
    await vt.write("日本 go");
    await vt.press("enter");
    await vt.waitForScreen("Allow this tool call?");
    await cursorOnCaret(vt, true);
    await approve(vt, "y");
    await vt.waitFor(/— turn 1 · completed/);
    expect(vt.text()).toContain("after the tool");
    await vt.write("漢字");
    await cursorOnCaret(vt, false, /│ › 漢字 +│/);
    await vt.write("\x15"); // Ctrl+U: the line killed, then the picker opened
    await vt.waitForScreen(/│ › +│/);
    await vt.type("/model ");
    await vt.press("enter");
    await vt.waitForScreen(/Switch model · type to filter:/);
    await cursorOnCaret(vt, false);
    await vt.type("gpt5");
    await vt.waitForScreen(/▸ openai\/gpt-5/);
    await cursorOnCaret(vt, false);
    expect(vt.lines().filter((l) => l.includes("日本 go"))).toHaveLength(1);
  }, 40_000);
});
