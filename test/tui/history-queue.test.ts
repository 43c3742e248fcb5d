// Composer state that outlives a keystroke (R-UI-14, R-SIDE-5), in a real pseudo-terminal:
// prompt history kept per workspace across runs under TERN_HOME, a queued follow-up taken back
// for editing with Up on an empty composer, and typing that reaches the composer while the
// /btw panel is open.
import { mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { VTerm } from "../support/vterm.js";
import { openaiStream, openaiText } from "../support/openai-script.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();
const composerShows = (text: string) => new RegExp(`│ › ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} *│`);

describe("tern composer history, queue and side panel", () => {
  it("keeps prompt history per workspace across runs", async () => {
    t.provider.enqueue(openaiText("one"), openaiText("two"));
    const first = await t.start();
    await first.type("remember this prompt");
    await first.press("enter");
    await first.waitFor(/— turn 1 · completed/);
    await first.type("/quit");
    await first.press("enter");
    expect(await first.exited).toBe(0);
    expect(readdirSync(join(t.dirs.home, "history"))).toHaveLength(1);

    const again = await t.start();
    await again.press("up");
    await again.waitForScreen(composerShows("/quit"));
    await again.press("up");
    await again.waitForScreen(composerShows("remember this prompt"));

    // Another workspace has its own (empty) history.
    const elsewhere = join(t.dirs.root, "elsewhere");
    mkdirSync(elsewhere);
    const other = new VTerm({
      home: t.dirs.home,
      cwd: elsewhere,
      args: ["--model", "local/mock-1", "--base-url", t.provider.baseUrl],
    });
    try {
      await other.waitFor(/context \d+% · \d+ tokens/, 15_000);
      await new Promise((r) => setTimeout(r, 150));
      await other.press("up");
      await other.type("fresh");
      await other.waitForScreen(composerShows("fresh"));
    } finally {
      await other.close();
    }
  });

  it("Up on an empty composer takes the newest queued follow-up back to edit", async () => {
    t.provider.enqueue(
      openaiStream().text("working on it").stallAfter(2).build(),
      openaiText("first follow-up seen"),
      openaiText("edited follow-up seen"),
    );
    const vt = await t.start();
    await vt.type("long task");
    await vt.press("enter");
    await vt.waitFor("working on it");
    await vt.type("first follow-up");
    await vt.press("enter");
    await vt.type("second follow-up");
    await vt.press("enter");
    await vt.waitForScreen("queued: second follow-up");
    await vt.press("up");
    await vt.waitForScreen(composerShows("second follow-up"));
    await vt.waitForGone("queued: second follow-up");
    expect(vt.screen().join("\n")).toContain("queued: first follow-up");
    await vt.type(", edited");
    await vt.press("enter");
    await vt.waitForScreen("queued: second follow-up, edited");
    // An empty Enter sends the queue now, one prompt each, the edited text last.
    await vt.press("enter");
    await vt.waitFor("edited follow-up seen");
    expect(userTexts(t.provider.requests[1].body).at(-1)).toBe("first follow-up");
    expect(userTexts(t.provider.requests[2].body).at(-1)).toBe("second follow-up, edited");
  });

  it("typing reaches the composer while the /btw panel is open", async () => {
    t.provider.enqueue(openaiText("side answer"), openaiText("main answer"));
    const vt = await t.start();
    await vt.type("/btw quick question?");
    await vt.press("enter");
    await vt.waitForScreen("btw: quick question? (1/1)");
    await vt.type("hello there");
    await vt.waitForScreen(composerShows("hello there"));
    // The panel stays while typing; Esc closes it and keeps the text.
    expect(vt.screen().join("\n")).toContain("side answer");
    await vt.press("escape");
    await vt.waitForGone("btw: quick question?");
    await vt.waitForScreen(composerShows("hello there"));
  });
});
