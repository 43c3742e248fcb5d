// R-UI-27: undo and redo in the composer (Ctrl+_ undoes as in readline and Claude Code; Ctrl+X
// Ctrl+_ and Alt+_ redo) and control keys without a binding ignored, never inserted. In a real
// pseudo-terminal read by @xterm/headless; the grouping of typed runs is checked directly too.
import { describe, expect, it } from "vitest";
import { EditHistory } from "../../src/tui/undo.js";
import { openaiText } from "../support/openai-script.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();
const composerShows = (text: string) => new RegExp(`│ › ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} *│`);

describe("EditHistory (pure)", () => {
  it("groups a typed word into one step, and a space or a caret move ends it", () => {
    const h = new EditHistory();
    let e = { text: "", cursor: 0 };
    const type = (s: string) => {
      for (const ch of s) {
        const next = { text: e.text.slice(0, e.cursor) + ch + e.text.slice(e.cursor), cursor: e.cursor + 1 };
        h.record(e, next);
        e = next;
      }
    };
    type("hello world");
    expect(h.undo(e)).toEqual({ text: "hello ", cursor: 6 });
    e = { text: "hello ", cursor: 6 };
    expect(h.undo(e)).toEqual({ text: "hello", cursor: 5 });
    e = { text: "hello", cursor: 5 };
    expect(h.redo(e)).toEqual({ text: "hello ", cursor: 6 });
  });
});

describe("tern composer undo and stray keys", () => {
  it("Ctrl+_ undoes a kill, Ctrl+X Ctrl+_ and Alt+_ redo; Ctrl+] Ctrl+\\ Ctrl+^ insert nothing", async () => {
    t.provider.enqueue(openaiText("ok"));
    const vt = await t.start();
    await vt.type("alpha beta");
    await vt.write("\x17"); // Ctrl+W cuts "beta"
    await vt.waitForScreen(composerShows("alpha"));
    await vt.write("\x1f"); // Ctrl+_ undoes the cut
    await vt.waitForScreen(composerShows("alpha beta"));
    await vt.write("\x18\x1f"); // Ctrl+X Ctrl+_ redoes it
    await vt.waitForScreen(composerShows("alpha"));
    await vt.write("\x1f");
    await vt.waitForScreen(composerShows("alpha beta"));
    await vt.write("\x1b_"); // Alt+_ redoes too
    await vt.waitForScreen(composerShows("alpha"));
    await vt.write("\x1f");
    await vt.waitForScreen(composerShows("alpha beta"));
    await vt.write("\x1d"); // Ctrl+]
    await vt.write("\x1c"); // Ctrl+\
    await vt.write("\x1e"); // Ctrl+^
    await vt.write("\x1b[27;5;93~"); // Ctrl+] as modifyOtherKeys reports it
    await vt.type("!");
    await vt.waitForScreen(composerShows("alpha beta!"));
    expect(vt.screen().join("\n")).not.toMatch(/\^[\]\\^_]/);
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body)).toEqual(["alpha beta!"]);
  });
});
