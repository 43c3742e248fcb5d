// Ink's measureText (ink/build/measure-text.js), with its cache bounded. Ink keeps the size of
// every text it ever laid out in a module-level Map that is never cleared: while an answer
// streams each frame's live region is a new text, so a long session kept every frame it drew
// (R-UI-22's memory figure). The build puts this module in its place (scripts/build-plugins.mjs,
// inkMeasureText); the same sizes, measured the same way (string-width of each line).
import { width } from "./ansi.js";

/** Texts remembered: a frame's few <Text> nodes many times over, and the Static items being laid out. */
export const MEASURED_KEPT = 1000;

const cache = new Map<string, { width: number; height: number }>();

export default function measureText(text: string): { width: number; height: number } {
  if (text.length === 0) return { width: 0, height: 0 };
  const known = cache.get(text);
  if (known) return known;
  const lines = text.split("\n");
  let widest = 0;
  for (const line of lines) widest = Math.max(widest, width(line));
  const dimensions = { width: widest, height: lines.length };
  if (cache.size >= MEASURED_KEPT) cache.clear();
  cache.set(text, dimensions);
  return dimensions;
}

/** How many texts are remembered now (for the test that it stays bounded). */
export function measuredTexts(): number {
  return cache.size;
}
