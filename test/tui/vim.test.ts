// R-UI-30: the composer's vim mode — normal and insert modes, the motions and edits a vim user
// expects (h j k l w b e 0 $ x dd dw cw i a A I o O u p, with counts), the mode in the status line.
// In a real pseudo-terminal read by @xterm/headless; the normal-mode keys are checked directly too.
import { describe, expect, it } from "vitest";
import type { Edit } from "../../src/tui/composer.js";
import { type VimState, vimKey } from "../../src/tui/vim.js";
import { openaiText } from "../support/openai-script.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();

/** Plays normal-mode keys (one character each; "⎋" is Esc) and returns the text and caret. */
function play(text: string, cursor: number, keys: string): Edit & { mode: string } {
  let state: VimState = { mode: "normal", pending: "", register: "" };
  let e: Edit = { text, cursor };
  for (const k of keys) {
    if (state.mode === "insert") {
      if (k === "⎋") state = { ...state, mode: "normal" };
      else e = { text: e.text.slice(0, e.cursor) + k + e.text.slice(e.cursor), cursor: e.cursor + 1 };
      continue;
    }
    const out = vimKey(state, e, k === "⎋" ? "" : k, { escape: k === "⎋" });
    state = out.state;
    if (out.edit) e = out.edit;
  }
  return { ...e, mode: state.mode };
}

describe("vim normal mode (pure)", () => {
  const line = "alpha beta gamma";
  it("moves with h l w b e 0 $ and counts", () => {
    expect(play(line, 0, "w").cursor).toBe(6);
    expect(play(line, 0, "2w").cursor).toBe(11);
    expect(play(line, 11, "b").cursor).toBe(6);
    expect(play(line, 0, "e").cursor).toBe(4);
    expect(play(line, 0, "$").cursor).toBe(15);
    expect(play(line, 7, "0").cursor).toBe(0);
    expect(play(line, 0, "3l").cursor).toBe(3);
    expect(play(line, 3, "2h").cursor).toBe(1);
    expect(play("ab\ncd", 4, "k").cursor).toBe(1);
    expect(play("ab\ncd", 1, "j").cursor).toBe(4);
  });

  it("edits with x dd dw cw D p and counts", () => {
    expect(play(line, 0, "x").text).toBe("lpha beta gamma");
    expect(play(line, 0, "3x").text).toBe("ha beta gamma");
    expect(play(line, 0, "dw").text).toBe("beta gamma");
    expect(play(line, 0, "2dw").text).toBe("gamma");
    expect(play(line, 6, "cwBETA⎋").text).toBe("alpha BETA gamma");
    expect(play(line, 6, "D").text).toBe("alpha ");
    expect(play("one\ntwo\nthree", 5, "dd").text).toBe("one\nthree");
    expect(play("one\ntwo\nthree", 0, "2dd").text).toBe("three");
    expect(play("one\ntwo", 0, "ddp").text).toBe("two\none");
    expect(play(line, 0, "xp").text).toBe("lapha beta gamma");
    // A cluster is one character: x takes an emoji whole.
    expect(play("a🙂b", 1, "x").text).toBe("ab");
  });

  it("enters insert mode with i a A I o O", () => {
    expect(play("abc", 1, "iX⎋").text).toBe("aXbc");
    expect(play("abc", 1, "aX⎋").text).toBe("abXc");
    expect(play("abc", 1, "AX⎋").text).toBe("abcX");
    expect(play("abc", 1, "IX⎋").text).toBe("Xabc");
    expect(play("abc", 1, "oX⎋").text).toBe("abc\nX");
    expect(play("abc", 1, "OX⎋").text).toBe("X\nabc");
    expect(play("abc", 1, "i").mode).toBe("insert");
  });
});

describe("tern composer with vim keys", () => {
  it("ui.vim starts in insert mode; Esc, motions, dw, u and the mode in the status line", async () => {
    t.provider.enqueue(openaiText("ok"));
    const vt = await t.start([], { ui: { vim: true } }, /INSERT · local\/mock-1 · context/);
    await vt.type("alpha beta gamma");
    await vt.press("escape");
    await vt.waitForScreen(/^NORMAL · local\/mock-1/m);
    await vt.type("0w");
    await vt.type("dw");
    await vt.waitForScreen(/│ › alpha gamma +│/);
    await vt.type("u");
    await vt.waitForScreen(/│ › alpha beta gamma +│/);
    await vt.type("$x");
    await vt.waitForScreen(/│ › alpha beta gamm +│/);
    await vt.type("A");
    await vt.waitForScreen(/^INSERT · /m);
    await vt.type("er");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual(["alpha beta gammer"]);
  });

  it("/vim turns the keys on and off", async () => {
    const vt = await t.start();
    await vt.type("/vim ");
    await vt.press("enter");
    await vt.waitFor("vim keys on: Esc for normal mode, i to insert");
    await vt.waitForScreen(/^INSERT · local\/mock-1/m);
    await vt.type("/vim ");
    await vt.press("enter");
    await vt.waitFor("vim keys off");
    await vt.waitForScreen(/^local\/mock-1 · context/m);
  });
});
