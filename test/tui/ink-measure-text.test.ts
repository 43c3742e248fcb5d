// The bundled stand-in for Ink's measureText: the sizes Ink's own gives, and a cache that stays
// bounded however many texts a long streaming session lays out.
import { describe, expect, it } from "vitest";
import inkMeasureText from "../../node_modules/ink/build/measure-text.js";
import { style } from "../../src/tui/ansi.js";
import measureText, { MEASURED_KEPT, measuredTexts } from "../../src/tui/ink-measure-text.js";

describe("ink-measure-text", () => {
  it("measures as Ink does: the widest line without escapes, wide characters as two, the line count", () => {
    const texts = [
      "",
      "one line",
      `${style.bold("## What changed")}\n${style.gray("│")} code 漢字\n\nlast`,
      "trailing newline\n",
      "⠋ Thinking · turn 3.2s · Esc to interrupt",
    ];
    for (const text of texts) expect(measureText(text)).toEqual(inkMeasureText(text));
  });

  it("keeps at most MEASURED_KEPT texts, and still answers after forgetting", () => {
    for (let i = 0; i < MEASURED_KEPT * 3; i++) measureText(`streamed frame ${i}\n${"word ".repeat(i % 50)}`);
    expect(measuredTexts()).toBeLessThanOrEqual(MEASURED_KEPT);
    expect(measuredTexts()).toBeGreaterThan(0);
    expect(measureText("streamed frame 0\n")).toEqual({ width: 16, height: 2 });
  });
});
