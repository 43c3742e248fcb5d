// Readline editing in the composer (R-UI-14), in a real pseudo-terminal: Ctrl+W/K/U/Y, Alt+B/F,
// Ctrl+←/→, Ctrl+D (delete under the cursor; exit on an empty prompt), Shift+Enter in both
// extended-key report forms, and the extended key modes switched on at start and off on exit.
// The pure edit functions are checked directly too.
import { describe, expect, it, vi } from "vitest";
import { killToEnd, killToStart, killWordBack, wordLeft, wordRight } from "../../src/tui/readline.js";
import { openaiText } from "../support/openai-script.js";
import type { VTerm } from "../support/vterm.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();
const composerShows = (text: string) => new RegExp(`│ › ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} *│`);
const cursorOn = (vt: VTerm, ch: string) =>
  vi.waitFor(() => expect(vt.inverse()).toBe(ch), { timeout: 10_000, interval: 25 });

describe("readline edits (pure)", () => {
  const at = (text: string) => ({ text, cursor: text.length });
  it("Ctrl+W cuts the whitespace-delimited word before the cursor", () => {
    expect(killWordBack(at("edit src/a.ts  "))).toEqual({ edit: at("edit "), killed: "src/a.ts  " });
    // At a line start it joins the line to the one above.
    expect(killWordBack({ text: "one\ntwo", cursor: 4 })).toEqual({
      edit: { text: "onetwo", cursor: 3 },
      killed: "\n",
    });
  });
  it("Ctrl+U and Ctrl+K stop at line breaks", () => {
    const e = { text: "first\nsecond line", cursor: 13 };
    expect(killToStart(e)).toEqual({ edit: { text: "first\nline", cursor: 6 }, killed: "second " });
    expect(killToEnd(e)).toEqual({ edit: { text: "first\nsecond ", cursor: 13 }, killed: "line" });
    expect(killToEnd({ text: "a\nb", cursor: 1 })).toEqual({ edit: { text: "ab", cursor: 1 }, killed: "\n" });
  });
  it("word movement skips punctuation like readline", () => {
    expect(wordLeft({ text: "foo.bar baz", cursor: 11 }).cursor).toBe(8);
    expect(wordLeft({ text: "foo.bar baz", cursor: 8 }).cursor).toBe(4);
    expect(wordRight({ text: "foo.bar baz", cursor: 0 }).cursor).toBe(3);
  });
});

describe("tern composer readline keys", () => {
  it("Ctrl+W, Ctrl+Y, Ctrl+U (to the line start only), Ctrl+K, Alt+B/F and Ctrl+←/→", async () => {
    t.provider.enqueue(openaiText("edited"));
    const vt = await t.start();
    await vt.type("alpha beta gamma");
    await vt.write("\x17"); // Ctrl+W
    await vt.waitForScreen(composerShows("alpha beta"));
    await vt.write("\x19"); // Ctrl+Y puts the cut word back
    await vt.waitForScreen(composerShows("alpha beta gamma"));
    await vt.write("\x1bb"); // Alt+B: to the start of "gamma"
    await cursorOn(vt, "g");
    await vt.write("\x1b[1;5D"); // Ctrl+Left: to "beta"
    await cursorOn(vt, "b");
    await vt.write("\x1bf"); // Alt+F: past "beta"
    await cursorOn(vt, " ");
    await vt.write("\x0b"); // Ctrl+K: the rest of the line
    await vt.waitForScreen(composerShows("alpha beta"));
    await vt.write("\x1b[1;5C"); // Ctrl+Right at the end: stays
    await vt.write("\x1b\r"); // Alt+Enter: a second line
    await vt.type("second line");
    await vt.write("\x15"); // Ctrl+U: only the second line's text goes
    await vt.waitForScreen(/│ › alpha beta *│\n│ {3} *│/);
    await vt.type("kept");
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual(["alpha beta\nkept"]);
  });

  it("Shift+Enter inserts a newline in the kitty and modifyOtherKeys forms; the modes go on and off", async () => {
    t.provider.enqueue(openaiText("three lines"));
    const vt = await t.start();
    expect(vt.raw).toContain("\x1b[>1u");
    expect(vt.raw).toContain("\x1b[>4;1m");
    await vt.type("one");
    await vt.write("\x1b[13;2u"); // kitty: Shift+Enter
    await vt.type("two");
    await vt.write("\x1b[27;2;13~"); // xterm modifyOtherKeys: Shift+Enter
    await vt.type("three");
    await vt.waitForScreen(/│ › one *│\n│ {3}two *│\n│ {3}three *│/);
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual(["one\ntwo\nthree"]);
    await vt.write("\x04"); // Ctrl+D on an empty composer exits
    expect(await vt.exited).toBe(0);
    expect(vt.raw.lastIndexOf("\x1b[<u")).toBeGreaterThan(vt.raw.lastIndexOf("\x1b[>1u"));
    expect(vt.raw.lastIndexOf("\x1b[>4m")).toBeGreaterThan(vt.raw.lastIndexOf("\x1b[>4;1m"));
  });

  it("Ctrl+D on text deletes the character under the cursor and does not exit", async () => {
    const vt = await t.start();
    await vt.type("abcd");
    await vt.press("ctrlA");
    await vt.write("\x04");
    await vt.waitForScreen(composerShows("bcd"));
    // Still running and still editing.
    await vt.type("a");
    await vt.waitForScreen(composerShows("abcd"));
    expect(vt.exitCode).toBeUndefined();
  });
});
