// The fast path in front of string-width (src/tui/fast-width.ts, bundled in its place for Ink,
// wrap-ansi, widest-line and cli-truncate): the same answer as string-width for every character
// it counts itself and for text mixing them with everything it hands on.
import stringWidth from "string-width";
import { describe, expect, it } from "vitest";
import { stripAnsi, style, truncate } from "../../src/tui/ansi.js";
import width, { NARROW, simpleWidth } from "../../src/tui/fast-width.js";
import { seededRandom } from "../support/random.js";

const segmenter = new Intl.Segmenter();
const clusters = (text: string) => [...segmenter.segment(text)].length;

const PIECES = [
  "word ",
  "·",
  "│",
  "↓",
  "⠋",
  "…",
  "é",
  "─",
  style.gray("gray"),
  "\x1b[38;5;52mtint\x1b[49m",
  "\x1b[?25l",
  "\x1b[>0c",
  "\x1b[",
  "\x1b",
  "\x1b]8;;https://example.com\x07link\x1b]8;;\x07",
  "\x9b31m",
  "漢字",
  "👍",
  "👩‍💻",
  "e\u0301",
  "\u00ad",
  "\t",
  "\u200d",
  "\ufe0f",
  "\ud800",
  "한",
  "ｱﾞ",
  "1\u20e3",
  "⌚",
];

describe("fast-width", () => {
  it("counts each character of its set as one column, as string-width does, each its own cluster", () => {
    let checked = 0;
    for (const [from, to] of NARROW)
      for (let c = from; c <= to; c++) {
        const ch = String.fromCharCode(c);
        if (stringWidth(ch) !== 1 || clusters(`a${ch}a`) !== 3 || clusters(ch + ch) !== 2)
          throw new Error(`U+${c.toString(16)} is not a one-column cluster of its own`);
        expect(simpleWidth(ch)).toBe(1);
        checked++;
      }
    expect(checked).toBeGreaterThan(2000);
  });

  it("gives string-width's answer for text mixing its characters, escapes and everything else", () => {
    const next = seededRandom(7);
    for (let n = 0; n < 3000; n++) {
      let text = "";
      const parts = 1 + Math.floor(next() * 8);
      for (let i = 0; i < parts; i++) text += PIECES[Math.floor(next() * PIECES.length)];
      if (width(text) !== stringWidth(text)) throw new Error(`width(${JSON.stringify(text)})`);
    }
    for (const piece of PIECES) expect(width(piece)).toBe(stringWidth(piece));
    expect(width("")).toBe(0);
    expect(width(style.green("⠋ responding · turn 1.2s · ↓ 40 tokens"))).toBe(38);
  });

  it("passes string-width's options on", () => {
    expect(width("±", { ambiguousIsNarrow: false })).toBe(stringWidth("±", { ambiguousIsNarrow: false }));
    expect(width(style.bold("x"), { countAnsiEscapeCodes: true })).toBe(
      stringWidth(style.bold("x"), { countAnsiEscapeCodes: true }),
    );
  });

  it("leaves truncate's cut as measuring each longer prefix gave it", () => {
    const reference = (line: string, cols: number) => {
      if (stringWidth(line) <= cols) return line;
      let out = "";
      for (const ch of stripAnsi(line)) {
        if (stringWidth(out + ch) > cols - 1) break;
        out += ch;
      }
      return `${out}…`;
    };
    const next = seededRandom(11);
    for (let n = 0; n < 500; n++) {
      let text = "";
      for (let i = 0; i < 12; i++) text += PIECES[Math.floor(next() * 12)];
      const cols = Math.floor(next() * 40);
      expect(truncate(text, cols)).toBe(reference(text, cols));
    }
  });
});
