import { describe, expect, it } from "vitest";
import { TextBuilder } from "../../src/provider/text-builder.js";

describe("TextBuilder", () => {
  it("gives back every piece in order, across many segments, and empty when nothing was added", () => {
    expect(new TextBuilder().text()).toBe("");
    const builder = new TextBuilder();
    let expected = "";
    for (let i = 0; i < 1000; i++) {
      const piece = i % 7 === 0 ? "é\n" : ` w${i}`;
      builder.add(piece);
      expected += piece;
      if (i === 255 || i === 256 || i === 999) expect(builder.text()).toBe(expected);
    }
  });
});
