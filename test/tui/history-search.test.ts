// Ctrl+R history search (R-UI-21) in a real pseudo-terminal: type to filter the workspace's
// earlier prompts (fuzzy, newest first), Ctrl+R again for older matches, Enter takes the match
// into the composer without sending it, Esc (or Ctrl+C) puts the draft back. The matcher's
// order is checked directly too.
import { describe, expect, it } from "vitest";
import { historyMatches } from "../../src/tui/history-search.js";
import { HistoryStore } from "../../src/tui/history-store.js";
import { openaiText } from "../support/openai-script.js";
import type { VTerm } from "../support/vterm.js";
import { userTexts, useTui } from "./support.js";

const t = useTui();
const CTRL_R = "\x12";
const composerShows = (text: string) => new RegExp(`│ ${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} *│`);

/** The underlined runs of the visible screen, row by row. */
function underlined(vt: VTerm): string[] {
  const buffer = vt.term.buffer.active;
  const runs: string[] = [];
  for (let y = 0; y < vt.term.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    let run = "";
    for (let x = 0; line && x < vt.term.cols; x++) {
      const cell = line.getCell(x);
      if (cell?.isUnderline()) run += cell.getChars();
      else if (run) {
        runs.push(run);
        run = "";
      }
    }
    if (run) runs.push(run);
  }
  return runs;
}

function seedHistory(prompts: string[]): void {
  const store = new HistoryStore(t.dirs.home, t.dirs.workspace);
  for (const p of prompts) store.add(p);
}

const texts = (entries: readonly string[], query: string) =>
  historyMatches(entries, query).map((m) => m.text);

describe("history search (pure)", () => {
  it("lists each prompt once, newest first, and puts exact matches before fuzzy ones", () => {
    const entries = ["fix the parser", "run tests", "fix the parser", "first indexing pass", "fix lexer"];
    expect(texts(entries, "")).toEqual(["fix lexer", "first indexing pass", "fix the parser", "run tests"]);
    // "first indexing pass" holds f…i…x only fuzzily: after the prompts that hold "fix".
    expect(texts(entries, "fix")).toEqual(["fix lexer", "fix the parser", "first indexing pass"]);
    expect(texts(entries, "zzz")).toEqual([]);
    // Smart case: a capital letter makes the query case-sensitive.
    expect(texts(["Deploy now", "deploy later"], "Deploy")).toEqual(["Deploy now"]);
    expect(texts(["Deploy now", "deploy later"], "deploy")).toEqual(["deploy later", "Deploy now"]);
  });

  it("draws a prompt on one line and knows which characters matched", () => {
    const [m] = historyMatches(["first line\nsecond fix"], "fix");
    expect(m.label).toBe("first line ⏎ second fix");
    expect([...m.marks].sort((a, b) => a - b)).toEqual([20, 21, 22]);
    expect(m.text).toBe("first line\nsecond fix");
  });
});

describe("Ctrl+R in the composer", () => {
  it("filters as you type, steps to older matches, and Enter takes the match without sending", async () => {
    seedHistory(["fix the parser bug", "run the tests", "fix the lexer", "deploy to staging"]);
    t.provider.enqueue(openaiText("done"));
    const vt = await t.start();
    await vt.type("my draft");
    await vt.write(CTRL_R);
    await vt.waitForScreen("search history›");
    // Every prompt, newest first and selected.
    await vt.waitForScreen(/› deploy to staging/);
    await vt.type("fix");
    await vt.waitForScreen(composerShows("search history› fix"));
    await vt.waitForScreen(/› fix the lexer/);
    expect(vt.screen().join("\n")).not.toContain("deploy to staging");
    // What matched is underlined in each listed prompt.
    expect(underlined(vt)).toEqual(["fix", "fix"]);
    await vt.write(CTRL_R);
    await vt.waitForScreen(/› fix the parser bug/);
    await vt.press("enter");
    await vt.waitForScreen(composerShows("› fix the parser bug"));
    await vt.waitForGone("search history›");
    expect(t.provider.requests).toHaveLength(0);
    // A second Enter sends the taken prompt as it stands.
    await vt.press("enter");
    await vt.waitFor(/— turn 1 · completed/);
    expect(userTexts(t.provider.requests[0].body).at(-1)).toBe("fix the parser bug");
  });

  it("Esc and Ctrl+C leave the search with the draft back; no match says so", async () => {
    seedHistory(["alpha prompt", "beta prompt"]);
    const vt = await t.start();
    await vt.type("half-written draft");
    await vt.write(CTRL_R);
    await vt.type("zzz");
    await vt.waitForScreen("no earlier prompt matches");
    await vt.press("escape");
    await vt.waitForScreen(composerShows("› half-written draft"));
    await vt.waitForGone("no earlier prompt matches");
    // Ctrl+C leaves the search only: the draft is not cleared.
    await vt.write(CTRL_R);
    await vt.type("alp");
    await vt.waitForScreen(/› alpha prompt/);
    await vt.press("ctrlC");
    await vt.waitForScreen(composerShows("› half-written draft"));
    // An arrow key takes the match and moves in it, as in bash.
    await vt.write(CTRL_R);
    await vt.type("beta");
    await vt.waitForScreen(/› beta prompt/);
    await vt.press("home");
    await vt.type(">> ");
    await vt.waitForScreen(composerShows("› >> beta prompt"));
    expect(t.provider.requests).toHaveLength(0);
  });
});
