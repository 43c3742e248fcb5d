// An answer committed to the scrollback piece by piece while it streams must read exactly as the
// same answer drawn whole (a resumed session draws it whole): pieces end at blank lines, closed
// fences, headings and the starts of top-level list items, so a long list or a run of headings
// reaches the scrollback while it streams instead of only its last rows showing.
import stripAnsi from "strip-ansi";
import { describe, expect, it } from "vitest";
import { reduce } from "../../src/tui/reducer.js";
import { itemRows } from "../../src/tui/transcript-view.js";
import { initialState, type UiState } from "../../src/tui/ui-state.js";
import { seededRandom } from "../support/random.js";

const start = () =>
  reduce(initialState({ model: "local/m", sessionId: "s1", contextWindow: 1000 }), {
    type: "event",
    event: { type: "turn_start", turn: 1 },
    now: 0,
  });

/** The answer streamed `step` characters at a time; the items it committed, and their rows. */
function streamed(text: string, step: number): { state: UiState; rows: string[]; piecesBeforeEnd: number } {
  let s = start();
  for (let i = 0; i < text.length; i += step)
    s = reduce(s, { type: "event", event: { type: "text_delta", text: text.slice(i, i + step) }, now: 0 });
  const piecesBeforeEnd = s.items.length;
  s = reduce(s, {
    type: "event",
    event: { type: "assistant_message", text, reasoning: "", tool_calls: [], finish_reason: "stop" },
    now: 0,
  });
  return { state: s, rows: s.items.flatMap((item) => itemRows(item, 60)).map(stripAnsi), piecesBeforeEnd };
}

const whole = (text: string) => itemRows({ id: 1, kind: "assistant", text }, 60).map(stripAnsi);

const SAMPLES: Record<string, string> = {
  "a tight list after a paragraph": [
    "Here is the plan:",
    ...Array.from({ length: 12 }, (_, i) => `- step ${i + 1}: do thing ${i + 1}`),
    "",
    "Done.",
  ].join("\n"),
  "an ordered list": ["Steps:", "1. first", "2. second", "3. third", "4. fourth"].join("\n"),
  "nested items and continuation lines": [
    "- top one",
    "  - nested a",
    "  - nested b",
    "- top two",
    "  more of top two",
    "- top three",
  ].join("\n"),
  "headings without blank lines": ["# Title", "intro text", "## Part", "- a", "- b", "## Next", "end"].join(
    "\n",
  ),
  "a list with a fenced block in an item": [
    "- install:",
    "  ```sh",
    "  npm ci",
    "  - not an item",
    "  ```",
    "- then test",
  ].join("\n"),
  "paragraphs and a table": ["One para.", "", "| a | b |", "|---|---|", "| 1 | 2 |", "", "- x", "- y"].join(
    "\n",
  ),
  "a setext heading is not cut from its text": ["Title line", "---", "- after"].join("\n"),
  "a loose list": ["- one", "", "- two", "", "- three"].join("\n"),
  "a list item starting 2 does not interrupt a paragraph": ["text", "2. not a list", "more"].join("\n"),
  "a quoted list stays whole": ["> - q1", "> - q2", "", "after"].join("\n"),
};

describe("an answer committed while it streams", () => {
  for (const [name, text] of Object.entries(SAMPLES))
    it(`reads as the whole answer: ${name}`, () => {
      for (const step of [1, 3, 17, text.length])
        expect(streamed(text, step).rows, `step ${step}`).toEqual(whole(text));
    });

  it("commits a tight list's items before the answer ends", () => {
    const { piecesBeforeEnd, state } = streamed(SAMPLES["a tight list after a paragraph"], 4);
    // The paragraph and eleven finished items (the twelfth waits for its end) were in the scrollback already.
    expect(piecesBeforeEnd).toBeGreaterThanOrEqual(12);
    expect(state.items[0].text).toBe("Here is the plan:");
  });
});

/**
 * Pieces of answers as models write them: paragraphs, lists (nested, numbered, continued),
 * headings, fences (top-level and in an item), tables, quotes, rules after a blank line. Not
 * every string markdown accepts: where readers disagree (a lone `-` under a table, `===` under
 * a quote) the cuts hold back (stream-cuts.ts), and marked's own reading may then move lines.
 */
const PIECES = [
  "plain text of a paragraph",
  "a second line of that paragraph",
  "",
  "",
  "- bullet item",
  "- another bullet",
  "* star item",
  "1. first",
  "2. second",
  "3. third",
  "  - nested item",
  "  continued under the item",
  "lazy continuation",
  "# Heading",
  "## Sub heading",
  "```ts\nconst x = 1;\n```",
  "- item with code:\n  ```sh\n  npm ci\n  ```",
  "| a | b |\n|---|---|\n| 1 | 2 |",
  "> quoted text",
  "> - quoted item",
  "\n---\n",
  "**Bold lead:** then text",
];

describe("any answer, committed while it streams", () => {
  it("reads as the whole answer for 400 generated documents at several stream steps", () => {
    const next = seededRandom(7);
    for (let doc = 0; doc < 400; doc++) {
      const count = 3 + Math.floor(next() * 14);
      const text = Array.from({ length: count }, () => PIECES[Math.floor(next() * PIECES.length)]).join("\n");
      const expected = whole(text);
      for (const step of [1, 2, 5, 11])
        expect(streamed(text, step).rows, `${JSON.stringify(text)} step ${step}`).toEqual(expected);
    }
  });
});
