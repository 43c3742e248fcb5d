// The composer in a real pseudo-terminal: cursor movement and editing at the cursor, Home/End
// (Ctrl+A / Ctrl+E), Up/Down history of this process, and multi-line prompts (Alt+Enter,
// trailing backslash + Enter). The pure edit functions are checked directly too.
import { describe, expect, it, vi } from "vitest";
import { History, verticalMove } from "../../src/tui/composer.js";
import { openaiText } from "../support/openai-script.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();
/** The composer row inside its box: `│ › text … │`. */
const composerShows = (text: string) => new RegExp(`│ › ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} *│`);

describe("tern composer", () => {
  it("edits at the cursor: Left/Right, Home/End, Ctrl+A/Ctrl+E, Backspace", async () => {
    t.provider.enqueue(openaiText("edited"));
    const vt = await t.start();
    await vt.type("wrld");
    await vt.press("ctrlA");
    await vt.type("hello ");
    await vt.press("ctrlE");
    await vt.type("!");
    await vt.waitForScreen(composerShows("hello wrld!"));
    expect(vt.inverse()).toBe(" ");
    for (let i = 0; i < 4; i++) await vt.press("left");
    // The text is unchanged; the cursor cell moved onto the "r".
    await vi.waitFor(() => expect(vt.inverse()).toBe("r"), { timeout: 5000, interval: 25 });
    await vt.type("o");
    await vt.waitForScreen(composerShows("hello world!"));
    await vt.press("home");
    await vt.press("right");
    await vt.press("right");
    await vt.press("backspace");
    await vt.waitForScreen(composerShows("hllo world!"));
    expect(vt.inverse()).toBe("l");
    await vt.type("e");
    await vt.press("end");
    await vt.press("backspace");
    await vt.waitForScreen(composerShows("hello world"));
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual(["hello world"]);
  });

  it("Up/Down recall earlier prompts and bring the draft back", async () => {
    t.provider.enqueue(openaiText("one"), openaiText("two"), openaiText("three"));
    const vt = await t.start();
    for (const [i, prompt] of ["first prompt", "second prompt"].entries()) {
      await vt.type(prompt);
      await vt.press("enter");
      await vt.waitFor(new RegExp(`— turn ${i + 1} · completed`));
    }
    await vt.type("draft");
    await vt.press("up");
    await vt.waitForScreen(composerShows("second prompt"));
    await vt.press("up");
    await vt.waitForScreen(composerShows("first prompt"));
    await vt.press("up");
    await vt.waitForScreen(composerShows("first prompt"));
    await vt.press("down");
    await vt.waitForScreen(composerShows("second prompt"));
    await vt.press("down");
    await vt.waitForScreen(composerShows("draft"));
    await vt.press("up");
    await vt.press("up");
    await vt.waitForScreen(composerShows("first prompt"));
    await vt.press("enter");
    await vt.waitFor(/— turn 3 · completed/);
    expect(userTexts(t.provider.requests[2].body).at(-1)).toBe("first prompt");
  });

  it("Alt+Enter and a trailing backslash + Enter make a multi-line prompt", async () => {
    t.provider.enqueue(openaiText("three lines"));
    const vt = await t.start();
    await vt.type("line one");
    await vt.press("altEnter");
    await vt.type("line two\\");
    await vt.press("enter");
    await vt.type("line three");
    await vt.waitForScreen(/│ › line one *│\n│ {3}line two *│\n│ {3}line three *│/);
    expect(t.provider.requests).toHaveLength(0);
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual(["line one\nline two\nline three"]);
  });
});

describe("composer editing (pure)", () => {
  it("Up/Down move between lines of a multi-line prompt before recalling history", () => {
    const text = "abcdef\nxy\nlonger line";
    expect(verticalMove({ text, cursor: 5 }, -1)).toBeUndefined();
    expect(verticalMove({ text, cursor: 5 }, 1)).toEqual({ text, cursor: 9 }); // column clamped to "xy"
    expect(verticalMove({ text, cursor: 8 }, 1)).toEqual({ text, cursor: 11 });
    expect(verticalMove({ text, cursor: 11 }, -1)).toEqual({ text, cursor: 8 });
    expect(verticalMove({ text, cursor: text.length }, 1)).toBeUndefined();
  });

  it("history steps back, stops at the ends, and restores the draft", () => {
    const h = new History();
    expect(h.step(-1, "x")).toBeUndefined();
    h.add("a");
    h.add("b");
    h.add("b");
    expect(h.step(-1, "draft")).toBe("b");
    expect(h.step(-1, "b")).toBe("a");
    expect(h.step(-1, "a")).toBeUndefined();
    expect(h.step(1, "a")).toBe("b");
    expect(h.step(1, "b")).toBe("draft");
    expect(h.step(1, "draft")).toBeUndefined();
  });
});
