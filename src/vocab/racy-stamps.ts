// When a modification time read from the file system can be trusted to move at the next change
// (git's "racy" entries): a change made in the same timestamp tick as the one that set `mtimeMs`
// leaves the time as it was, so a reading taken within a tick of the last change may miss the
// next one. The tick is the file system's timestamp granularity, and that can be seen in the
// time itself: FAT keeps 2 s, ext3 (128-byte inodes), HFS+ and many network shares whole
// seconds, so a whole-second time gets 2 s. A time with a non-zero sub-second part comes from a
// file system that keeps sub-second times (ext4, xfs, btrfs, tmpfs, APFS, NTFS: ns or 100 ns;
// exFAT 10 ms); there the kernel stamps with its coarse clock, which lags by at most one
// scheduler tick (<= 10 ms at HZ=100), so 100 ms is ten ticks of margin. A fine file system shows
// a whole-second time about once in a thousand (or after `touch -d`): it then gets the 2 s, which
// is only slower, never wrong. Both windows assume the file server's clock agrees with ours
// within the window (a share whose clock runs ahead reads as "changed just now": untrusted).

/** Whole-second times: coarser than any file system's stamps that matter here (FAT's 2 s). */
export const COARSE_RACY_MS = 2_000;
/** Sub-second times: ten scheduler ticks of the kernel's coarse timestamp clock. */
export const FINE_RACY_MS = 100;

/** How long after `mtimeMs` a change could still leave that same time (see above). */
export function racyWindowMs(mtimeMs: number): number {
  return mtimeMs % 1000 === 0 ? COARSE_RACY_MS : FINE_RACY_MS;
}

/**
 * Whether a reading of `mtimeMs` taken at `readAtMs` (wall clock, taken no later than the
 * reading) is sure to see the next change as a different time.
 */
export function stampTrusted(mtimeMs: number, readAtMs: number): boolean {
  return readAtMs - mtimeMs >= racyWindowMs(mtimeMs);
}
