// The composer's border drawn by the UI (live-view.ts composerBox) is the box Ink drew for it
// (`borderStyle="single"`, `paddingX={1}`, the width of the terminal): the same cells, the
// border in the composer's colour.
import { Box, renderToString, Text } from "ink";
import { describe, expect, it } from "vitest";
import { stripAnsi, style } from "../../src/tui/ansi.js";
import { composerBox, composerRows } from "../../src/tui/live-view.js";

function inkBox(rows: string[], cols: number): string[] {
  const drawn = renderToString(
    <Box borderStyle="single" paddingX={1}>
      <Text>{rows.join("\n")}</Text>
    </Box>,
    { columns: cols },
  );
  return drawn.split("\n");
}

describe("composerBox", () => {
  it("draws the cells Ink's single border with one column of padding drew", () => {
    const cases: [string, number, number][] = [
      ["", 0, 60],
      ["fix the failing test", 7, 40],
      ["漢字 and a long line that wraps inside the border more than once at this width", 30, 30],
      ["one\ntwo\n\nfour", 3, 24],
    ];
    for (const [text, cursor, cols] of cases) {
      const rows = composerRows(text, cursor, "› ", Math.max(4, cols - 4), 10);
      expect(composerBox(rows, cols, style.cyan).map(stripAnsi)).toEqual(inkBox(rows, cols).map(stripAnsi));
    }
  });

  it("paints every border cell and leaves the text's own colours as they are", () => {
    const rows = composerRows("hello", 5, "› ", 36, 10);
    const [top, middle, bottom] = composerBox(rows, 40, style.gray);
    expect(top).toBe(style.gray(`┌${"─".repeat(38)}┐`));
    expect(bottom).toBe(style.gray(`└${"─".repeat(38)}┘`));
    expect(middle.startsWith(`${style.gray("│")} ${rows[0]}`)).toBe(true);
    expect(middle.endsWith(` ${style.gray("│")}`)).toBe(true);
  });
});
