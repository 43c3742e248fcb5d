// Raw input the Ink keys hide, in a real pseudo-terminal: bracketed paste (inserted at the
// cursor as is, never sent, even when the paste or its markers arrive split over chunks),
// paste mode switched on at start and off on every exit, and Delete vs Backspace.
import { describe, expect, it, vi } from "vitest";
import { RawInput } from "../../src/tui/raw-input.js";
import { openaiText } from "../support/openai-script.js";
import type { VTerm } from "../support/vterm.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();
const ON = "\x1b[?2004h";
const OFF = "\x1b[?2004l";
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Paste mode was switched on, and off again after the last time it was switched on. */
function pasteModeRestored(vt: VTerm): void {
  expect(vt.raw).toContain(ON);
  expect(vt.raw.lastIndexOf(OFF)).toBeGreaterThan(vt.raw.lastIndexOf(ON));
}

describe("bracketed paste", () => {
  it("inserts a multi-line paste at the cursor without sending it; /quit turns paste mode off", async () => {
    t.provider.enqueue(openaiText("got the paste"));
    const vt = await t.start();
    expect(vt.raw).toContain(ON);
    expect(vt.raw).not.toContain(OFF);
    await vt.type("[]");
    await vt.press("left");
    await vt.write("\x1b[200~line one\rline two\r\nline three\r\x1b[201~");
    await vt.waitForScreen(/│ › \[line one *│\n│ {3}line two *│\n│ {3}line three *│\n│ {3}\] *│/);
    await pause(100);
    expect(t.provider.requests).toHaveLength(0);
    // The cursor sits right after the pasted text, on the "]".
    expect(vt.inverse()).toBe("]");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual(["[line one\nline two\nline three\n]"]);
    await vt.type("/quit");
    await vt.press("enter");
    expect(await vt.exited).toBe(0);
    pasteModeRestored(vt);
  });

  it("reassembles a paste whose text and markers arrive split over several chunks", async () => {
    t.provider.enqueue(openaiText("split paste seen"));
    const vt = await t.start();
    // Pauses longer than Ink waits for the rest of an escape sequence, so each piece is an event.
    for (const piece of ["\x1b", "[20", "0~first half\r", "sec", "ond half\x1b[2", "01", "~"]) {
      await vt.write(piece);
      await pause(40);
    }
    await vt.type("!");
    await vt.waitForScreen(/│ › first half *│\n│ {3}second half! *│/);
    expect(t.provider.requests).toHaveLength(0);
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual(["first half\nsecond half!"]);
  });

  it("a double Ctrl+C exit turns paste mode off too", async () => {
    const vt = await t.start();
    await vt.press("ctrlC");
    await vt.waitFor("press Ctrl+C again to exit");
    await vt.press("ctrlC");
    expect(await vt.exited).toBe(0);
    pasteModeRestored(vt);
  });
});

describe("Delete and Backspace", () => {
  it("Delete removes the character under the cursor, Backspace the one before it", async () => {
    t.provider.enqueue(openaiText("deleted"));
    const vt = await t.start();
    await vt.type("hello");
    await vt.press("home");
    await vt.press("delete");
    await vt.waitForScreen(/│ › ello *│/);
    expect(vt.inverse()).toBe("e");
    await vt.press("right");
    await vt.press("right");
    await vt.press("backspace");
    await vt.waitForScreen(/│ › elo *│/);
    await vi.waitFor(() => expect(vt.inverse()).toBe("l"), { timeout: 5000, interval: 25 });
    await vt.press("delete");
    await vt.waitForScreen(/│ › eo *│/);
    // At the end of the text Delete does nothing.
    await vt.press("end");
    await vt.press("delete");
    await vt.type("!");
    await vt.waitForScreen(/│ › eo! *│/);
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual(["eo!"]);
  });
});

describe("RawInput (pure)", () => {
  it("keeps typed text after a paste's end and ignores a lone Escape", () => {
    const pasted: string[] = [];
    const raw = new RawInput((text) => pasted.push(text));
    raw.feed("\x1b");
    expect(raw.consumed).toBe(false);
    raw.feed("a");
    expect(raw.consumed).toBe(false);
    // "[2" after a lone ESC may be a cut marker: held, then typed when "x" shows it was not.
    raw.feed("\x1b");
    raw.feed("[2");
    expect(raw.consumed).toBe(true);
    raw.feed("x");
    expect([raw.consumed, raw.leftover]).toEqual([false, "[2"]);
    raw.feed("\x1b[200~");
    expect(raw.consumed).toBe(true);
    raw.feed("x\r\ny");
    raw.feed("\x1b[20");
    expect(raw.consumed).toBe(true);
    raw.feed("1~typed");
    expect(pasted).toEqual(["x\ny"]);
    expect(raw.leftover).toBe("typed");
    raw.feed("\x1b[3~");
    expect(raw.consumed).toBe(false);
    expect(raw.forwardDelete).toBe(true);
    raw.feed("\x7f");
    expect(raw.forwardDelete).toBe(false);
  });
});
