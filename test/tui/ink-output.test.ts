// ink-output.ts's shortcut through Ink's Output.get() (and ink-output-grid.ts, tern's copy of
// Ink's class): every frame must put the same characters in the same cells with the same colours
// as Ink's own get() (read back through a terminal
// emulator, @xterm/headless), for rows written whole, rows Ink composes (a border beside text)
// and wide characters.
import xterm from "@xterm/headless";
import { describe, expect, it } from "vitest";
import Output from "../../node_modules/ink/build/output.js";
import { style } from "../../src/tui/ansi.js";
import TernOutput from "../../src/tui/ink-output.js";
import { OutputGrid } from "../../src/tui/ink-output-grid.js";

type AnyOutput = Output | OutputGrid;

interface Write {
  x: number;
  y: number;
  text: string;
  upper?: boolean;
}

/** Like a <Text>: Ink writes every text through its transform (identity without colour props). */
const asText = (line: string) => line;

function output(
  Kind: new (o: { width: number; height: number }) => AnyOutput,
  width: number,
  height: number,
  writes: Write[],
): AnyOutput {
  const out = new Kind({ width, height });
  for (const w of writes) out.write(w.x, w.y, w.text, { transformers: w.upper ? [upper] : [asText] });
  return out;
}

/** A transformer that changes the line (as <Text color> does), applied to each line with its index. */
const upper = (line: string, index: number) => `${index}:${line.toUpperCase()}`;

/** Each cell as the terminal shows it: character, colours, bold, inverse. */
async function cells(text: string, cols: number, rows: number): Promise<string[]> {
  const term = new xterm.Terminal({ cols, rows, allowProposedApi: true, convertEol: true });
  await new Promise<void>((r) => term.write(text, r));
  const out: string[] = [];
  const b = term.buffer.active;
  for (let y = 0; y < rows; y++) {
    const line = b.getLine(y);
    for (let x = 0; x < cols; x++) {
      const c = line?.getCell(x);
      if (!c) continue;
      out.push(
        `${y},${x}:${c.getChars() || " "}/${c.getFgColorMode()}.${c.getFgColor()}/${c.getBgColorMode()}.${c.getBgColor()}/${c.isBold()}${c.isInverse()}${c.isItalic()}${c.isUnderline()}`,
      );
    }
  }
  return out;
}

const border = (cols: number, colour: (t: string) => string) => ({
  top: colour(`┌${"─".repeat(cols - 2)}┐`),
  side: colour("│"),
  bottom: colour(`└${"─".repeat(cols - 2)}┘`),
});

/** A frame like the UI's: answer rows, a bordered composer, a status line. */
function frame(cols: number): Write[] {
  const b = border(cols, style.cyan);
  return [
    {
      x: 0,
      y: 0,
      text: [
        `${style.bold("## What changed")}`,
        `The writer keeps the ${style.bold("previous frame")} and ${style.italic("rewrites")} only   `,
        `${style.gray("│")} ${style.cyan("const")} x = 1; 漢字の幅 ${style.addBg("+ added line  ")}`,
        "",
        `${style.green("⠋")} ${style.green("Thinking")}${style.gray(" · turn 3.2s · Esc to interrupt")}`,
      ].join("\n"),
    },
    { x: 0, y: 5, text: b.top },
    { x: 0, y: 6, text: b.side },
    { x: cols - 1, y: 6, text: b.side },
    { x: 2, y: 6, text: `› hello ${style.inverse(" ")}` },
    { x: 0, y: 7, text: b.bottom },
    { x: 0, y: 8, text: style.gray(`openai/bench-1 · context 0% · 0 tokens · $0.00 · session s1`) },
    { x: 0, y: 9, text: "a transformed row", upper: true },
  ];
}

describe("Ink's output, rows written whole", () => {
  it("gives the cells Ink's own get() gives, frame after frame", async () => {
    const cols = 60;
    const rows = 11;
    for (const writes of [frame(cols), frame(cols), [{ x: 0, y: 0, text: "only one row" }], frame(cols)]) {
      const ours = output(TernOutput, cols, rows, writes).get();
      const ink = output(Output, cols, rows, writes).get();
      expect(output(OutputGrid, cols, rows, writes).get()).toEqual(ink);
      expect(ours.height).toBe(ink.height);
      expect(ours.output.split("\n")).toHaveLength(ink.output.split("\n").length);
      expect(await cells(ours.output, cols, rows)).toEqual(await cells(ink.output, cols, rows));
    }
    // The whole rows are the UI's own lines (not re-encoded), the composer's row is Ink's.
    const writes = frame(cols);
    const [ours, ink] = [
      output(TernOutput, cols, rows, writes).get(),
      output(Output, cols, rows, writes).get(),
    ];
    expect(ours.output.split("\n")[1]).toBe(writes[0].text.split("\n")[1].trimEnd());
    expect(ours.output.split("\n")[6]).toBe(ink.output.split("\n")[6]);
    expect(ours.output.split("\n")[9]).toBe("0:A TRANSFORMED ROW");
  });

  it("leaves a clipped frame to Ink whole", () => {
    const clipped = (out: AnyOutput) => {
      out.clip({ x1: 0, x2: 5, y1: 0, y2: 1 });
      out.write(0, 0, "clipped to five columns", { transformers: [] });
      out.write(3, 1, "beside", { transformers: [] });
      out.unclip();
      return out.get();
    };
    const ink = clipped(new Output({ width: 20, height: 2 }));
    expect(ink.output).toBe("clipp\n");
    expect(clipped(new TernOutput({ width: 20, height: 2 }))).toEqual(ink);
    expect(clipped(new OutputGrid({ width: 20, height: 2 }))).toEqual(ink);
  });
});
