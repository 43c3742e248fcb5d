// Reads Codex's apply_patch format (R-EDIT-1), following openai/codex codex-rs/apply-patch/src/parser.rs
// rule for rule, including its leniency: markers may carry surrounding whitespace, a patch may
// come wrapped in a `<<'EOF'` here-document, and the first chunk of an update may start without
// `@@`. One addition: several `@@ header` lines in a row narrow the place step by step, as
// Codex's own instructions to models describe (its parser refuses the second one).

export interface UpdateChunk {
  /** `@@ <header>` lines before the chunk: each is found in order, the chunk after the last. */
  contexts: string[];
  oldLines: string[];
  newLines: string[];
  /** `*** End of File`: the old lines sit at the end of the file. */
  endOfFile: boolean;
  /** 1-based line of the patch where the chunk starts (for errors). */
  patchLine: number;
}

export type Hunk =
  | { type: "add"; path: string; contents: string }
  | { type: "delete"; path: string }
  | { type: "update"; path: string; movePath?: string; chunks: UpdateChunk[] };

export class PatchParseError extends Error {}

const BEGIN = "*** Begin Patch";
const END = "*** End Patch";
const ADD = "*** Add File: ";
const DELETE = "*** Delete File: ";
const UPDATE = "*** Update File: ";
const MOVE = "*** Move to: ";
const EOF_MARKER = "*** End of File";

const invalidHunk = (line: number, message: string) =>
  new PatchParseError(`invalid hunk at line ${line}, ${message}`);

function checkBoundaries(lines: string[]): void {
  const first = lines[0]?.trim();
  const last = lines[lines.length - 1]?.trim();
  if (first === BEGIN && last === END && lines.length >= 2) return;
  if (first !== BEGIN)
    throw new PatchParseError("invalid patch: The first line of the patch must be '*** Begin Patch'");
  throw new PatchParseError("invalid patch: The last line of the patch must be '*** End Patch'");
}

/** The patch's lines inside `*** Begin Patch` … `*** End Patch`, unwrapping a here-document. */
function bodyLines(patch: string): string[] {
  // Rust's str::lines: split on \n, a trailing \r dropped, no empty line after a final newline.
  const lines = patch
    .trim()
    .split("\n")
    .map((l) => (l.endsWith("\r") ? l.slice(0, -1) : l));
  try {
    checkBoundaries(lines);
    return lines.slice(1, -1);
  } catch (err) {
    const first = lines[0];
    const heredoc = first === "<<EOF" || first === "<<'EOF'" || first === '<<"EOF"';
    if (heredoc && lines.length >= 4 && lines[lines.length - 1].endsWith("EOF")) {
      const inner = lines.slice(1, -1);
      checkBoundaries(inner);
      return inner.slice(1, -1);
    }
    throw err;
  }
}

export function parsePatch(patch: string): Hunk[] {
  const lines = bodyLines(patch);
  const hunks: Hunk[] = [];
  let at = 0;
  while (at < lines.length) {
    const { hunk, used } = parseHunk(lines, at, at + 2);
    hunks.push(hunk);
    at += used;
  }
  return hunks;
}

function parseHunk(lines: string[], at: number, lineNo: number): { hunk: Hunk; used: number } {
  const first = lines[at].trim();
  if (first.startsWith(ADD)) {
    let contents = "";
    let used = 1;
    while (at + used < lines.length && lines[at + used].startsWith("+")) {
      contents += `${lines[at + used].slice(1)}\n`;
      used++;
    }
    return { hunk: { type: "add", path: first.slice(ADD.length), contents }, used };
  }
  if (first.startsWith(DELETE))
    return { hunk: { type: "delete", path: first.slice(DELETE.length) }, used: 1 };
  if (first.startsWith(UPDATE)) {
    const path = first.slice(UPDATE.length);
    let used = 1;
    let movePath: string | undefined;
    if (at + used < lines.length && lines[at + used].startsWith(MOVE)) {
      movePath = lines[at + used].slice(MOVE.length);
      used++;
    }
    const chunks: UpdateChunk[] = [];
    while (at + used < lines.length) {
      const line = lines[at + used];
      // Blank lines between chunks are skipped; a line starting with `*` ends the file's section.
      if (line.trim() === "") {
        used++;
        continue;
      }
      if (line.startsWith("*")) break;
      const chunk = parseChunk(lines, at + used, lineNo + used, chunks.length === 0);
      chunks.push(chunk.chunk);
      used += chunk.used;
    }
    if (chunks.length === 0) throw invalidHunk(lineNo, `Update file hunk for path '${path}' is empty`);
    return { hunk: { type: "update", path, ...(movePath !== undefined ? { movePath } : {}), chunks }, used };
  }
  throw invalidHunk(
    lineNo,
    `'${first}' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', ` +
      "'*** Delete File: {path}', '*** Update File: {path}'",
  );
}

function parseChunk(
  lines: string[],
  at: number,
  lineNo: number,
  allowMissingContext: boolean,
): { chunk: UpdateChunk; used: number } {
  const contexts: string[] = [];
  let start = 0;
  for (;;) {
    const line = lines[at + start];
    if (line === "@@") start++;
    else if (line?.startsWith("@@ ")) {
      contexts.push(line.slice(3));
      start++;
    } else break;
  }
  if (start === 0 && !allowMissingContext) {
    throw invalidHunk(lineNo, `Expected update hunk to start with a @@ context marker, got: '${lines[at]}'`);
  }
  if (at + start >= lines.length) throw invalidHunk(lineNo + 1, "Update hunk does not contain any lines");
  const chunk: UpdateChunk = { contexts, oldLines: [], newLines: [], endOfFile: false, patchLine: lineNo };
  let parsed = 0;
  for (let i = at + start; i < lines.length; i++) {
    const line = lines[i];
    if (line === EOF_MARKER) {
      if (parsed === 0) throw invalidHunk(lineNo + 1, "Update hunk does not contain any lines");
      chunk.endOfFile = true;
      parsed++;
      break;
    }
    const mark = line[0];
    if (mark === undefined) {
      // An empty line is an empty context line.
      chunk.oldLines.push("");
      chunk.newLines.push("");
    } else if (mark === " ") {
      chunk.oldLines.push(line.slice(1));
      chunk.newLines.push(line.slice(1));
    } else if (mark === "+") chunk.newLines.push(line.slice(1));
    else if (mark === "-") chunk.oldLines.push(line.slice(1));
    else {
      if (parsed === 0) {
        throw invalidHunk(
          lineNo + 1,
          `Unexpected line found in update hunk: '${line}'. Every line should start with ' ' ` +
            "(context line), '+' (added line), or '-' (removed line)",
        );
      }
      break; // the next chunk's `@@`, or the next file
    }
    parsed++;
  }
  return { chunk, used: parsed + start };
}

/** Every path a patch names (sources and move targets), in order, without repeats. */
export function patchPaths(hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  for (const h of hunks) {
    for (const p of [h.path, h.type === "update" ? h.movePath : undefined]) {
      if (p !== undefined && !out.includes(p)) out.push(p);
    }
  }
  return out;
}
