// The arithmetic of a summary too big for one request (R-COMP-2): cut a range into pieces that
// each fit the request budget, oldest first; group piece summaries into merge requests that fit;
// keep the newest summaries that fit the room left. Pure functions of sizes in tokens.

/** Inclusive index span. */
export interface Span {
  start: number;
  end: number;
}

export interface PiecePlan {
  /** Consecutive spans, oldest first, each at most the budget. */
  pieces: Span[];
  /** Groups (a message and the tool results after it) bigger than the budget: in no piece. */
  tooBig: Span[];
  /** Items before this index are left to the archive: more pieces than one compaction sends. */
  archivedBefore: number;
}

/**
 * Cuts items (messages, by token size) into pieces of at most `budget` each. A cut falls only
 * before an item that may start a piece (`startsGroup`: not a tool result, which stays with its
 * call). With more pieces than `maxPieces`, the oldest are left out: the newest matter most, and
 * the archive keeps the rest readable.
 */
export function planPieces(
  sizes: readonly number[],
  startsGroup: (index: number) => boolean,
  budget: number,
  maxPieces: number,
): PiecePlan {
  const groups: { span: Span; size: number }[] = [];
  for (let i = 0; i < sizes.length; i++) {
    const last = groups.at(-1);
    if (last && !startsGroup(i)) {
      last.span.end = i;
      last.size += sizes[i];
    } else groups.push({ span: { start: i, end: i }, size: sizes[i] });
  }
  const pieces: Span[] = [];
  const tooBig: Span[] = [];
  let current: { span: Span; size: number } | undefined;
  for (const g of groups) {
    if (g.size > budget) {
      tooBig.push(g.span);
      current = undefined;
      continue;
    }
    if (current && current.size + g.size <= budget) {
      current.span.end = g.span.end;
      current.size += g.size;
      continue;
    }
    current = { span: { ...g.span }, size: g.size };
    pieces.push(current.span);
  }
  const kept = pieces.slice(Math.max(0, pieces.length - maxPieces));
  const archivedBefore = kept.length < pieces.length ? kept[0].start : 0;
  return { pieces: kept, tooBig: tooBig.filter((s) => s.start >= archivedBefore), archivedBefore };
}

/**
 * Consecutive groups of summaries for merge requests, each group's total at most `budget` (a
 * summary bigger than that alone is a group of one; the caller cuts it).
 */
export function planMerge(sizes: readonly number[], budget: number): number[][] {
  const groups: number[][] = [];
  let total = 0;
  sizes.forEach((size, i) => {
    const last = groups.at(-1);
    if (last && total + size <= budget) {
      last.push(i);
      total += size;
    } else {
      groups.push([i]);
      total = size;
    }
  });
  return groups;
}

/** Index of the oldest summary kept when only the newest that fit `room` together can stay. */
export function newestThatFit(sizes: readonly number[], room: number): number {
  let total = 0;
  for (let i = sizes.length - 1; i >= 0; i--) {
    total += sizes[i];
    if (total > room) return i + 1;
  }
  return 0;
}
