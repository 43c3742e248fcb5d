// Ink 6.8's Output (ink/build/output.js, MIT, © Vadym Demedes), owned here so tern reaches no
// build file of Ink by path: how a frame's layout becomes text. Every write goes into a grid of
// styled cells, clipped to the innermost clip, and each row is encoded again. `ink-output.ts`
// extends it with the shortcut for rows written whole; the build puts that class where Ink's
// renderer imports its own (scripts/build-plugins.mjs, `inkOutput`). Kept as Ink wrote it.
import {
  type StyledChar,
  styledCharsFromTokens,
  styledCharsToString,
  tokenize,
} from "@alcalzone/ansi-tokenize";
import sliceAnsi from "slice-ansi";
// The widths string-width gives, in one pass for simple text (fast-width.ts; Ink got it from the build).
import stringWidth from "./fast-width.js";

export type Transformer = (line: string, index: number) => string;
export interface Clip {
  x1?: number;
  x2?: number;
  y1?: number;
  y2?: number;
}
export type Operation =
  | { type: "write"; x: number; y: number; text: string; transformers: Transformer[] }
  | { type: "clip"; clip: Clip }
  | { type: "unclip" };

class OutputCaches {
  widths = new Map<string, number>();
  blockWidths = new Map<string, number>();
  styledChars = new Map<string, StyledChar[]>();

  getStyledChars(line: string): StyledChar[] {
    let cached = this.styledChars.get(line);
    if (cached === undefined) {
      cached = styledCharsFromTokens(tokenize(line));
      this.styledChars.set(line, cached);
    }
    return cached;
  }

  getStringWidth(text: string): number {
    let cached = this.widths.get(text);
    if (cached === undefined) {
      cached = stringWidth(text);
      this.widths.set(text, cached);
    }
    return cached;
  }

  getWidestLine(text: string): number {
    let cached = this.blockWidths.get(text);
    if (cached === undefined) {
      let lineWidth = 0;
      for (const line of text.split("\n")) lineWidth = Math.max(lineWidth, this.getStringWidth(line));
      cached = lineWidth;
      this.blockWidths.set(text, cached);
    }
    return cached;
  }
}

export class OutputGrid {
  width: number;
  height: number;
  operations: Operation[] = [];
  caches = new OutputCaches();

  constructor(options: { width: number; height: number }) {
    this.width = options.width;
    this.height = options.height;
  }

  write(x: number, y: number, text: string, options: { transformers: Transformer[] }): void {
    if (!text) return;
    this.operations.push({ type: "write", x, y, text, transformers: options.transformers });
  }

  clip(clip: Clip): void {
    this.operations.push({ type: "clip", clip });
  }

  unclip(): void {
    this.operations.push({ type: "unclip" });
  }

  get(): { output: string; height: number } {
    const output: (StyledChar | undefined)[][] = [];
    for (let y = 0; y < this.height; y++) {
      const row: StyledChar[] = [];
      for (let x = 0; x < this.width; x++)
        row.push({ type: "char", value: " ", fullWidth: false, styles: [] });
      output.push(row);
    }
    const clips: Clip[] = [];
    for (const operation of this.operations) {
      if (operation.type === "clip") clips.push(operation.clip);
      if (operation.type === "unclip") clips.pop();
      if (operation.type === "write") this.place(output, operation, clips.at(-1));
    }
    const generated = output
      .map((line) => styledCharsToString(line.filter((item) => item !== undefined) as StyledChar[]).trimEnd())
      .join("\n");
    return { output: generated, height: output.length };
  }

  /** One write into the grid, clipped as Ink clips it. */
  private place(
    output: (StyledChar | undefined)[][],
    operation: Extract<Operation, { type: "write" }>,
    clip: Clip | undefined,
  ): void {
    const { text, transformers } = operation;
    let { x, y } = operation;
    let lines = text.split("\n");
    if (clip) {
      const clipHorizontally = typeof clip.x1 === "number" && typeof clip.x2 === "number";
      const clipVertically = typeof clip.y1 === "number" && typeof clip.y2 === "number";
      const [x1, x2, y1, y2] = [clip.x1 as number, clip.x2 as number, clip.y1 as number, clip.y2 as number];
      if (clipHorizontally) {
        const width = this.caches.getWidestLine(text);
        if (x + width < x1 || x > x2) return;
      }
      if (clipVertically && (y + lines.length < y1 || y > y2)) return;
      if (clipHorizontally) {
        lines = lines.map((line) => {
          const from = x < x1 ? x1 - x : 0;
          const width = this.caches.getStringWidth(line);
          const to = x + width > x2 ? x2 - x : width;
          return sliceAnsi(line, from, to);
        });
        if (x < x1) x = x1;
      }
      if (clipVertically) {
        const from = y < y1 ? y1 - y : 0;
        const height = lines.length;
        const to = y + height > y2 ? y2 - y : height;
        lines = lines.slice(from, to);
        if (y < y1) y = y1;
      }
    }
    let offsetY = 0;
    for (let [index, line] of lines.entries()) {
      const currentLine = output[y + offsetY];
      if (!currentLine) continue;
      for (const transformer of transformers) line = transformer(line, index);
      let offsetX = x;
      for (const character of this.caches.getStyledChars(line)) {
        currentLine[offsetX] = character;
        const characterWidth = Math.max(1, this.caches.getStringWidth(character.value));
        for (let i = 1; i < characterWidth; i++)
          currentLine[offsetX + i] = { type: "char", value: "", fullWidth: false, styles: character.styles };
        offsetX += characterWidth;
      }
      offsetY++;
    }
  }
}
