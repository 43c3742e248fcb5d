// Narrowing the terminal while an answer streams, in a real pseudo-terminal read by a terminal
// emulator (R-UI-13): afterwards the scrollback holds exactly what a run without the resize
// holds, no stale progress rows or composers, no answer line twice.
import { describe, expect, it } from "vitest";
import { openaiStream } from "../support/openai-script.js";
import type { VTerm } from "../support/vterm.js";
import { useTui } from "./support.js";

const t = useTui();
const LINES = 120;

/**
 * LINES one-line paragraphs; the stream holds after each line in `holdAfter` until its promise
 * settles. The test resizes while it holds: the resize lands between frames (the spinner still
 * draws), as a person's would, not while a frame is in the pipe (a frame drawn at a width the
 * program has not been told of yet is a race no program can win).
 */
function answer(delayMs: number, holdAfter = new Map<number, Promise<unknown>>()) {
  const s = openaiStream();
  for (let i = 1; i <= LINES; i++) {
    s.text(`answer line ${i}\n\n`);
    const hold = holdAfter.get(i);
    if (hold) s.hold(hold);
  }
  return s.finish("stop").usage({ prompt_tokens: 10, completion_tokens: LINES }).delay(delayMs).build();
}

/** Scrollback + screen from the prompt on, blank rows left out, times and session ids evened out. */
function transcript(vt: VTerm): string[] {
  const lines = vt.lines().map((l) => l.trimEnd());
  return lines
    .slice(lines.findIndex((l) => l.includes("› stream please")))
    .filter((l) => l.trim() !== "")
    .map((l) => l.replace(/\d+(\.\d+)?s\b/g, "Ns").replace(/session \S+/, "session ID"));
}

async function ask(vt: VTerm): Promise<void> {
  await vt.type("stream please");
  await vt.press("enter");
}

function gate(): { open: () => void; opened: Promise<void> } {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe("resize while an answer streams", () => {
  it("narrowing twice mid-stream leaves the scrollback of a run at the final width", async () => {
    const [first, second] = [gate(), gate()];
    t.provider.enqueue(
      answer(0),
      answer(
        4,
        new Map([
          [30, first.opened],
          [70, second.opened],
        ]),
      ),
    );
    const still = await t.start();
    await still.resize(60, 30);
    await ask(still);
    await still.waitFor(/— turn 1 · completed/, 20_000);
    await new Promise((r) => setTimeout(r, 200));
    const expected = transcript(still);
    expect(expected.filter((l) => l.startsWith("answer line"))).toHaveLength(LINES);

    const vt = await t.start();
    await ask(vt);
    await vt.waitFor("answer line 30");
    await vt.resize(80, 30);
    first.open();
    await vt.waitFor("answer line 70", 20_000);
    await vt.resize(60, 30);
    second.open();
    await vt.waitFor(/— turn 1 · completed/, 20_000);
    await new Promise((r) => setTimeout(r, 200));
    const got = transcript(vt);
    expect(got.filter((l) => /Thinking|Esc to interrupt/.test(l))).toEqual([]);
    expect(got).toEqual(expected);
  }, 30_000);
});
