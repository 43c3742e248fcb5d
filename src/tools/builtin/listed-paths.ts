// Many listed paths at once (a glob or grep over a big tree): the first few in order without
// sorting them all, absolute paths built by concatenation, and their display, without the
// per-path `join`/`relative` (each resolves) that cost a third of a 100,000-file listing.
import { join, resolve, sep } from "node:path";
import { displayPath } from "../paths.js";

/**
 * The first `k` of `items` in sorted order without sorting them all: a batch is sorted and cut
 * to `k` whenever it reaches 4k, and what sorts after its last is passed over (a glob lists
 * 500 of 10,000 paths; sorting them all was most of its own time).
 */
export function firstSorted(items: string[], k: number): string[] {
  if (items.length <= k) return items.sort();
  let kept: string[] = [];
  let cutoff: string | undefined;
  const cut = () => {
    kept = kept.sort().slice(0, k);
    if (kept.length === k) cutoff = kept[k - 1];
  };
  for (const item of items) {
    if (cutoff !== undefined && item >= cutoff) continue;
    kept.push(item);
    if (kept.length >= 4 * k) cut();
  }
  cut();
  return kept;
}

/** `dir` and a `/`-separated path under it as one absolute path, built by concatenation. */
export function underDir(dir: string): (rel: string) => string {
  const prefix = dir.endsWith(sep) ? dir : `${dir}${sep}`;
  return sep === "/" ? (rel) => prefix + rel : (rel) => join(dir, rel);
}

/**
 * displayPath for many paths under `cwd`: a listed path is normalized (built on a resolved
 * folder), so the part after `cwd/` is its display; `relative` per path cost ~4 resolves each.
 */
export function displayPathsFrom(cwd: string): (abs: string) => string {
  const prefix = cwd.endsWith(sep) ? cwd : `${cwd}${sep}`;
  const fast = sep === "/" && cwd === resolve(cwd);
  return (abs) =>
    fast && abs.startsWith(prefix) && abs.length > prefix.length && !/\/\.\.?(\/|$)/.test(abs)
      ? abs.slice(prefix.length)
      : displayPath(cwd, abs);
}
