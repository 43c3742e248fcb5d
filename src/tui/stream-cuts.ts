// Where a streaming answer can be cut, so the part before the cut goes to the scrollback while
// the rest streams (R-UI-13). The live region holds only the answer's tail (live-view.ts keeps it
// within a third of the screen), so a block that never ends — a long list without blank lines,
// headings over paragraphs — showed only its last rows until the answer ended. Cuts: at a blank
// line, after a closed fence, before and after a heading, and before each top-level list item.
// Every piece drawn on its own must read as the whole answer drawn at once (a resumed session
// draws it whole; test/tui/stream-cuts.test.ts holds the two side by side): so a cut is made
// only where the following line shows what the block after it is, and a piece that continues a
// list is drawn without the blank row that starts a new block (`joined`).
import type { Tokens } from "marked";
import { lexBlocks } from "./markdown.js";

export interface StreamCut {
  /** Where the complete part ends (0: nothing to commit yet). */
  cut: number;
  /** The piece after the cut continues the list the one before ends in: no blank row between. */
  joined: boolean;
  /**
   * A joined cut in a numbered list: the renderer numbers a list on from its first item, so the
   * next piece's first item must show the number it has in the whole list. `start` is the
   * list's first number in this text, `items` its items before the cut; `fromStart`: the list
   * began at the text's start, so it may continue the piece before's list (whose count wins).
   */
  numbered?: { start: number; items: number; fromStart: boolean };
}

// \x60 is a backtick, spelled so that readers of the source do not take it for a template string.
const FENCE = /^\s{0,3}(\x60{3,}|~{3,})/;
const HEADING = /^#{1,6}(\s|$)/;
/** A top-level list item (its text, or none yet): marker (bullet, or numbered delimiter), number, text column. */
const ITEM = /^(?:([-*+])|(\d{1,9})([.)]))(?:([ \t]+)\S|[ \t]*$)/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** A line that starts another block where a list item's text could continue (readers differ). */
const BLOCK_START = /^(>|\x60{3}|~{3}|\||<)/;

interface Item {
  marker: string;
  start: number;
  /** Nothing after the marker: after a paragraph, `-` underlines it as a heading instead. */
  empty: boolean;
  /** Where the item's text starts: a continuation after a blank line is indented this far. */
  indent: number;
}

function listItem(line: string): Item | undefined {
  if (RULE.test(line)) return undefined;
  const m = ITEM.exec(line);
  if (!m) return undefined;
  const marker = m[1] ?? m[3];
  const width = m[1] ? 1 : m[2].length + 1;
  const empty = m[4] === undefined;
  return {
    marker,
    start: m[1] ? 1 : Number(m[2]),
    empty,
    indent: width + (empty ? 1 : Math.min(m[4].length, 4)),
  };
}

/** The block the scan is in: none yet, a paragraph-like one, a list, or one readers may disagree on. */
type Block =
  | { kind: "none" | "unknown" }
  /** `lead`: its first line's first character (`>` a quote, `|` maybe a table, `#` a heading). */
  | { kind: "other"; lead: string }
  | { kind: "list"; marker: string; indent: number; empty: boolean };

const indentOf = (line: string) => line.length - line.trimStart().length;

/** An item indented by one to three spaces: a list outside any other; readers differ on what follows. */
const shiftedItem = (line: string) => {
  const indent = indentOf(line);
  return indent > 0 && indent < 4 && listItem(line.slice(indent)) !== undefined;
};

/** The block that begins at this line. */
function blockAt(line: string): Block {
  if (shiftedItem(line)) return { kind: "unknown" };
  const item = listItem(line);
  if (!item) return { kind: "other", lead: line.trimStart()[0] ?? "" };
  return { kind: "list", marker: item.marker, indent: item.indent, empty: item.empty };
}

/**
 * Where the text may be cut, in order, by what its lines show: the piece before a cut cannot be
 * changed by anything that follows (a `-` that may become `---`, a line that may continue a
 * list item). Where markdown readers differ, the scan cuts nothing until a heading or a blank
 * line before text at the margin settles it.
 */
function candidates(text: string): { cut: number; joined: boolean }[] {
  const found: { cut: number; joined: boolean }[] = [];
  /** The open fence's marker, and whether it is a top-level block (not inside a list item). */
  let fence: { marker: string; top: boolean } | null = null;
  let block = { kind: "none" } as Block;
  let afterBlank = false;
  let afterHeading = false;
  let pos = 0;
  const cutAt = (at: number, joined = false) => {
    if (at === 0) return;
    if (found.at(-1)?.cut === at) found.pop();
    found.push({ cut: at, joined });
  };
  while (pos < text.length) {
    const nl = text.indexOf("\n", pos);
    const complete = nl >= 0;
    const line = complete ? text.slice(pos, nl) : text.slice(pos);
    const next = complete ? nl + 1 : text.length;
    // A fence inside a list item left open when text at the margin ends the item: where that
    // fence ends, readers differ (marked may close it at any later fence): no more cuts.
    if (fence !== null && !fence.top && complete && line.trim() !== "" && indentOf(line) === 0) break;
    if (fence !== null) {
      const trimmed = line.trim();
      if (complete && trimmed.startsWith(fence.marker) && trimmed.replace(/[\x60~]/g, "") === "") {
        // A closed top-level fence ends its block by itself.
        if (fence.top) {
          block = { kind: "none" };
          cutAt(next);
        }
        fence = null;
      }
      pos = next;
      continue;
    }
    if (line.trim() === "") {
      if (complete) {
        afterBlank = true;
        // A blank line ends a paragraph-like block at once; a list's next line may continue it.
        if (block.kind === "other" || block.kind === "none") {
          cutAt(next);
          block = { kind: "none" };
        }
      }
      pos = next;
      continue;
    }
    // A line's kind is known once it is whole (`-` may yet become `---`).
    if (!complete && !(afterHeading || (afterBlank && block.kind === "none"))) break;
    const col0 = indentOf(line) === 0;
    const item = complete && col0 ? listItem(line) : undefined;
    const heading = complete && col0 && HEADING.test(line);
    /** This line ends its block (a rule, a heading's underline): the next line starts another. */
    let ends = false;
    if (heading || afterHeading) {
      cutAt(pos);
      if (heading) block = { kind: "other", lead: "#" };
      else block = blockAt(line);
    } else if (block.kind === "none") block = blockAt(line);
    else if (block.kind === "list") {
      if (item && item.marker === block.marker) {
        cutAt(pos, true);
        block.indent = item.indent;
        block.empty = item.empty;
      } else if (item) {
        // Another kind of item starts another list.
        cutAt(pos);
        block = blockAt(line);
      } else if (afterBlank && col0) {
        cutAt(pos);
        block = blockAt(line);
      } else if (afterBlank && indentOf(line) < block.indent) block = { kind: "unknown" };
      // Text at the margin under an empty item has no paragraph to continue: it starts one.
      else if (col0 && block.empty) block = { kind: "other", lead: line[0] };
      else if (col0 && (BLOCK_START.test(line) || RULE.test(line))) block = { kind: "unknown" };
      else block.empty = false;
    } else if (block.kind === "other" && shiftedItem(line)) block = { kind: "unknown" };
    else if (block.kind === "other") {
      // After a quote or a table, an item may be their text or a list (readers differ).
      if (item && (block.lead === ">" || block.lead === "|")) block = { kind: "unknown" };
      // A bullet list, or one numbered from 1, may interrupt a paragraph; another number may not.
      else if (item && !item.empty && (item.start === 1 || !(item.marker === "." || item.marker === ")"))) {
        cutAt(pos);
        block = blockAt(line);
      } else if (complete && (RULE.test(line) || /^ {0,3}-+[ \t]*$/.test(line))) ends = true;
      // `===` underlines a paragraph (a heading); in a quote it is text, in a table maybe a row.
      else if (complete && /^ {0,3}=+[ \t]*$/.test(line)) {
        if (block.lead === "|") block = { kind: "unknown" };
        else if (block.lead !== ">") ends = true;
      }
    } else if (afterBlank && col0 && !item) {
      // After a blank line, a line of text at the margin starts a paragraph whatever came before.
      cutAt(pos);
      block = blockAt(line);
    }
    if (!complete) break;
    afterBlank = false;
    afterHeading = heading || ends;
    const open = FENCE.exec(line);
    if (open) {
      // Indented where a list may be open: inside an item or not, readers differ. No more cuts.
      if (block.kind === "unknown" && !col0) break;
      const top = !(block.kind === "list" && !col0);
      fence = { marker: open[1][0].repeat(open[1].length), top };
    }
    pos = next;
  }
  return found;
}

/**
 * The last proposed cut that marked, which draws the answer, agrees with on the text so far: a
 * boundary between its top-level blocks, or, for a joined cut, between two items of one list.
 */
export function streamCut(text: string): StreamCut {
  const proposed = candidates(text);
  if (proposed.length === 0) return { cut: 0, joined: false };
  const end = text.lastIndexOf("\n") + 1;
  const tops = new Set<number>();
  const items = new Map<number, { start: number; items: number; fromStart: boolean; ordered: boolean }>();
  let at = 0;
  for (const token of lexBlocks(text.slice(0, end))) {
    tops.add(at);
    if (token.type === "list") {
      const list = token as Tokens.List;
      const start = typeof list.start === "number" ? list.start : 1;
      let itemAt = at;
      list.items.forEach((item, i) => {
        if (i > 0) items.set(itemAt, { start, items: i, fromStart: at === 0, ordered: list.ordered });
        itemAt += item.raw.length;
      });
    }
    at += token.raw.length;
  }
  tops.add(at);
  for (let i = proposed.length - 1; i >= 0; i--) {
    const { cut, joined } = proposed[i];
    if (cut > end) continue;
    if (!joined && tops.has(cut)) return { cut, joined };
    const item = joined ? items.get(cut) : undefined;
    if (item) {
      const { ordered, ...numbered } = item;
      return ordered ? { cut, joined, numbered } : { cut, joined };
    }
  }
  return { cut: 0, joined: false };
}
