// R-UI-25 / R-UI-26: the composer moves and deletes by grapheme cluster (an emoji, a ZWJ family,
// `e` + U+0301, CJK), measures as the renderer measures, and parks the terminal's hidden cursor
// on the caret so an input method opens at the text. Driven in a real pseudo-terminal read by
// @xterm/headless; the pure edits are checked directly too.
import { describe, expect, it, vi } from "vitest";
import { backspace, deleteForward, left, right, verticalMove } from "../../src/tui/composer.js";
import { composerLayout, wrapClusters } from "../../src/tui/composer-view.js";
import { nextBoundary, prevBoundary } from "../../src/tui/graphemes.js";
import { killWordBack, wordLeft, wordRight } from "../../src/tui/readline.js";
import { openaiText } from "../support/openai-script.js";
import type { VTerm } from "../support/vterm.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();
const FAMILY = "👨‍👩‍👧";
const ACUTE = "e\u0301";
const at = (text: string, cursor = text.length) => ({ text, cursor });

describe("grapheme clusters (pure)", () => {
  it("Backspace, Delete, Left and Right take a whole cluster", () => {
    expect(backspace(at("ab🙂")).text).toBe("ab");
    expect(backspace(at(`x${FAMILY}`)).text).toBe("x");
    expect(backspace(at(`caf${ACUTE}`)).text).toBe("caf");
    expect(backspace(at("🇯🇵🇫🇷")).text).toBe("🇯🇵");
    expect(deleteForward(at(`${FAMILY}y`, 0)).text).toBe("y");
    expect(left(at(`caf${ACUTE}`)).cursor).toBe(3);
    expect(right(at(`${ACUTE}x`, 0)).cursor).toBe(2);
    expect(left(at("👍🏽")).cursor).toBe(0);
    expect(prevBoundary("a\r\nb", 3)).toBe(1);
    expect(nextBoundary("1\ufe0f\u20e3", 0)).toBe(3);
  });

  it("word motions and Ctrl+W step over clusters", () => {
    expect(wordLeft(at(`say café${FAMILY}`)).cursor).toBe(4);
    expect(wordRight(at(`${FAMILY} café`, 0)).cursor).toBe(`${FAMILY} café`.length);
    expect(killWordBack(at(`one t${ACUTE}${FAMILY}`)).edit.text).toBe("one ");
  });

  it("Up and Down keep the caret's drawn column (CJK is two columns a character)", () => {
    const text = "日本語テキスト\nabcdefgh";
    // After 日本 (4 columns) the line below gets column 4: "abcd|".
    expect(verticalMove({ text, cursor: 2 }, 1)?.cursor).toBe(text.indexOf("e"));
    // From "abc|" (column 3) up: a wide character is never entered halfway: after 日 (column 2).
    expect(verticalMove({ text, cursor: text.indexOf("d") }, -1)?.cursor).toBe(1);
  });

  it("wraps by cluster and width, never splitting one, and reports the caret's cell", () => {
    expect(wrapClusters("日本語テ", 5)).toEqual([
      [0, 2],
      [2, 4],
    ]);
    expect(wrapClusters("ab cd ef", 4)).toEqual([
      [0, 3],
      [3, 6],
      [6, 8],
    ]);
    const layout = composerLayout(`日本${FAMILY}x`, 2, "› ", 40, 10);
    expect(layout.caret).toEqual({ row: 0, col: 6 });
    expect(layout.rows[0]).toContain(`\x1b[7m${FAMILY}\x1b[27m`);
    // A full last row puts the caret's cell on a row of its own instead of past the border.
    const full = composerLayout("abcd", 4, "› ", 6, 10);
    expect(full.rows.length).toBe(2);
    expect(full.caret).toEqual({ row: 1, col: 2 });
  });
});

/** The emulator's cursor, as (column, row) on the visible screen. */
function cursorOf(vt: VTerm): { x: number; y: number } {
  const b = vt.term.buffer.active;
  return { x: b.cursorX, y: b.cursorY };
}

/** The screen row of the composer's first line (`│ › …`). */
function composerRow(vt: VTerm): number {
  return vt.screen().findIndex((line) => line.startsWith("│ › "));
}

describe("tern composer with emoji, accents and CJK", () => {
  it("Backspace deletes an emoji and a ZWJ family whole; Left never stops inside e + U+0301", async () => {
    t.provider.enqueue(openaiText("ok"));
    const vt = await t.start();
    await vt.type("ab");
    await vt.write("🙂");
    await vt.press("backspace");
    await vt.write(` ${FAMILY}`);
    await vt.press("backspace");
    await vt.write(` caf${ACUTE}`);
    await vt.press("left");
    await vt.type("X");
    await vi.waitFor(() => expect(vt.inverse()).toBe(ACUTE), { timeout: 10_000, interval: 25 });
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual([`ab  cafX${ACUTE}`]);
    expect(vt.raw).not.toContain("\ufffd");
  });

  it("parks the terminal's cursor on the caret after typing CJK text and moving (input methods open there)", async () => {
    const vt = await t.start();
    await vt.write("日本語のテキスト");
    await vi.waitFor(() => expect(vt.screen().join("\n")).toContain("│ › 日本語のテキスト"), {
      timeout: 10_000,
      interval: 25,
    });
    // At the end: the cursor on the cell after the text (4 + 8 characters × 2 columns).
    await vi.waitFor(() => expect(cursorOf(vt)).toEqual({ x: 4 + 16, y: composerRow(vt) }), {
      timeout: 10_000,
      interval: 25,
    });
    for (let i = 0; i < 3; i++) await vt.press("left");
    // Three characters back: on キ (column 4 + 5 × 2).
    await vi.waitFor(() => expect(cursorOf(vt)).toEqual({ x: 14, y: composerRow(vt) }), {
      timeout: 10_000,
      interval: 25,
    });
    expect(vt.inverse().trim()).toBe("キ");
    await vt.press("home");
    await vi.waitFor(() => expect(cursorOf(vt).x).toBe(4), { timeout: 10_000, interval: 25 });
    await vt.type("x");
    await vi.waitFor(() => expect(cursorOf(vt).x).toBe(5), { timeout: 10_000, interval: 25 });
  });
});
