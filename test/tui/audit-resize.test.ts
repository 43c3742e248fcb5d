// Narrowing mid-stream re-checked with rows that re-wrap (R-UI-13): an answer whose unfinished block
// is a long list of lines wider than the narrowed terminal, narrowed 100 → 70 → 50 mid-stream.
// Rows a terminal re-wraps above its screen's top can no longer be erased, so afterwards the
// scrollback must still hold no stale progress row or composer and each item once.
import { describe, expect, it } from "vitest";
import { openaiStream, openaiText } from "../support/openai-script.js";
import { useTui } from "./support.js";

const t = useTui();
const ITEMS = 40;
const item = (i: number) =>
  `- item ${i} with some words to make it wrap around the terminal width when narrow ok`;

function gate(): { open: () => void; opened: Promise<void> } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("narrowing while a long list streams", () => {
  it.each([
    [70, 50],
    [50, 50],
    [90, 40],
  ])(
    "%i then %i columns: no stale frames and no item twice",
    async (firstCols, secondCols) => {
      const [first, second] = [gate(), gate()];
      t.provider.enqueue(openaiText(Array.from({ length: 40 }, (_, i) => `filler ${i}`).join("\n\n")));
      const s = openaiStream().text("Intro paragraph.\n\n");
      for (let i = 1; i <= ITEMS; i++) {
        s.text(`${item(i)}\n`);
        if (i === 25) s.hold(first.opened);
        if (i === 30) s.hold(second.opened);
      }
      t.provider.enqueue(
        s
          .text("\nThe end.")
          .finish("stop")
          .usage({ prompt_tokens: 10, completion_tokens: 99 })
          .delay(3)
          .build(),
      );
      const vt = await t.start();
      // A screen already full, as in any session past its first answer.
      await vt.type("fill please");
      await vt.press("enter");
      await vt.waitFor(/— turn 1 · completed/);
      await vt.type("list please");
      await vt.press("enter");
      await vt.waitFor("item 25 with");
      await vt.resize(firstCols, 30);
      first.open();
      await vt.waitFor("item 30 with", 10_000);
      await vt.resize(secondCols, 30);
      await new Promise((r) => setTimeout(r, 300));
      second.open();
      await vt.waitFor(/— turn 2 · completed/, 20_000);
      await new Promise((r) => setTimeout(r, 200));
      const lines = vt.lines();
      const from = lines.findIndex((l) => l.includes("› list please"));
      const got = lines.slice(from);
      expect(got.filter((l) => /Thinking|Esc to interrupt|context \d+%/.test(l))).toHaveLength(1);
      for (let i = 1; i <= ITEMS; i++)
        expect(got.filter((l) => l.includes(`item ${i} with`))).toHaveLength(1);
    },
    30_000,
  );
});
