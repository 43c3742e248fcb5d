// The engine sends the fold's messages array, which only grows between compactions (a compaction,
// /clear or rewind makes a new array). Work done for its first N messages (encoding, estimating)
// can therefore be kept and extended, as long as the array still holds the same Nth message.

export interface PrefixMemo<T> {
  count: number;
  last: T;
}

/** How many leading items the memo still describes (0 when it describes nothing reusable). */
export function reusablePrefix<T>(items: readonly T[], memo: PrefixMemo<T> | undefined): number {
  return memo && memo.count > 0 && memo.count <= items.length && items[memo.count - 1] === memo.last
    ? memo.count
    : 0;
}
