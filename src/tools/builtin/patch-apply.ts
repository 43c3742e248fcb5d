// The new text of a file an `*** Update File:` section changes (R-EDIT-1, R-EDIT-2), following
// openai/codex codex-rs/apply-patch/src/lib.rs (compute_replacements, apply_replacements): each
// chunk's `@@` headers and old lines are found from where the previous chunk ended; a chunk with
// no old lines is added at the end of the file; old lines ending in an empty line are tried again
// without it; the result always ends with a newline. Unlike Codex, the BOM and each untouched
// line's ending stay as they were, and new lines take the file's own ending (file-text.ts).
import { type FileText, joinFileText, splitFileText } from "./file-text.js";
import type { UpdateChunk } from "./patch-parse.js";
import { type MatchPass, seekSequence } from "./patch-seek.js";

export class ChunkError extends Error {
  constructor(
    message: string,
    /** 1-based number of the chunk in its file's section. */
    readonly chunk: number,
  ) {
    super(message);
  }
}

interface Replacement {
  start: number;
  oldLen: number;
  newLines: string[];
}

/** The chunks applied to `raw`; throws ChunkError naming the chunk that does not fit. */
export function applyChunks(
  raw: string,
  chunks: readonly UpdateChunk[],
): { text: string; passes: MatchPass[] } {
  const ft = splitFileText(raw);
  const lines = ft.lines;
  const passes: MatchPass[] = [];
  const replacements: Replacement[] = [];
  let at = 0;
  chunks.forEach((chunk, n) => {
    for (const context of chunk.contexts) {
      const found = seekSequence(lines, [context], at, false);
      if (!found) throw new ChunkError(`Failed to find context '${context}'`, n + 1);
      at = found.index + 1;
      passes.push(found.pass);
    }
    if (chunk.oldLines.length === 0) {
      // Codex adds a pure addition at the end of the file (before a last empty line), whatever its headers.
      const end = lines.length > 0 && lines[lines.length - 1] === "" ? lines.length - 1 : lines.length;
      replacements.push({ start: end, oldLen: 0, newLines: chunk.newLines });
      return;
    }
    let pattern = chunk.oldLines;
    let newLines = chunk.newLines;
    let found = seekSequence(lines, pattern, at, chunk.endOfFile);
    if (!found && pattern[pattern.length - 1] === "") {
      pattern = pattern.slice(0, -1);
      if (newLines[newLines.length - 1] === "") newLines = newLines.slice(0, -1);
      found = seekSequence(lines, pattern, at, chunk.endOfFile);
    }
    if (!found) throw new ChunkError(`Failed to find expected lines:\n${chunk.oldLines.join("\n")}`, n + 1);
    passes.push(found.pass);
    replacements.push({ start: found.index, oldLen: pattern.length, newLines });
    at = found.index + pattern.length;
  });
  replacements.sort((a, b) => a.start - b.start);
  return { text: joinFileText(replaced(ft, replacements)), passes };
}

/** Applies replacements last to first; new lines get the file's ending, and the file ends with one. */
function replaced(ft: FileText, replacements: readonly Replacement[]): FileText {
  const lines = [...ft.lines];
  const endings = [...ft.endings];
  for (let i = replacements.length - 1; i >= 0; i--) {
    const r = replacements[i];
    const oldLen = Math.min(r.oldLen, Math.max(0, lines.length - r.start));
    lines.splice(r.start, oldLen, ...r.newLines);
    endings.splice(r.start, oldLen, ...r.newLines.map(() => ft.eol));
  }
  if (endings.length > 0 && endings[endings.length - 1] === "") endings[endings.length - 1] = ft.eol;
  return { ...ft, lines, endings };
}
