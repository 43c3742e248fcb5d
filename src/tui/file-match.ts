// `@file` matching over a workspace's paths (R-BIG-3): name matches first, then path prefix,
// then substring, then fuzzy on path segments; the 50 best kept in order. A scan can run in
// slices (file-menu-search.ts runs it between keystrokes, so the echo of a key never waits for
// the menu) or to its end at once (`fileMenu`, and Tab right after typing). Pure apart from
// the caches below, which are keyed by the list object.

export const MAX_FILE_ITEMS = 50;
/** Paths scanned between two looks at the clock. */
const CHUNK = 4096;

/** `q` as a subsequence of `s` within [from, to): the index after its last character, or -1. */
export function subsequence(s: string, q: string, from = 0, to = s.length): number {
  let at = from;
  for (let i = 0; i < q.length; i++) {
    at = s.indexOf(q[i], at);
    if (at < 0 || at >= to) return -1;
    at++;
  }
  return at;
}

/**
 * Fuzzy on path segments: each `/`-separated part of the query is a subsequence of one segment
 * of the path, in order (`pk1/m3/f2` finds `packages/pkg0001/src/mod3/file2.ts`), taken
 * greedily. For a folder (`dir`, ending in `/`): how many parts its segments take.
 */
function partsTaken(dir: string, parts: readonly string[]): number {
  let taken = 0;
  let start = 0;
  while (taken < parts.length && start < dir.length) {
    const end = dir.indexOf("/", start);
    if (subsequence(dir, parts[taken], start, end) >= 0) taken++;
    start = end + 1;
  }
  return taken;
}

/**
 * Lower-cased paths, where each name starts and its folder: made once per list, not per key,
 * in slices like a scan (a new list lands while the person types).
 */
class Prepared {
  readonly lower: string[];
  readonly nameAt: Int32Array;
  /** Index into `dirs` of each path's folder ("" at the top). */
  readonly dirOf: Int32Array;
  readonly dirs: string[] = [];
  private readonly ids = new Map<string, number>();
  private filled = 0;
  /** The folder of the path before (a sorted list keeps a folder's files together). */
  private lastDir = "";
  private lastId = -1;

  constructor(readonly files: readonly string[]) {
    this.lower = new Array(files.length);
    this.nameAt = new Int32Array(files.length);
    this.dirOf = new Int32Array(files.length);
  }

  /** Prepares paths until done or until `until` (a performance.now() time); true when done. */
  fill(until: number): boolean {
    const { files, lower, nameAt, dirOf, dirs, ids } = this;
    while (this.filled < files.length) {
      const stop = Math.min(files.length, this.filled + CHUNK);
      for (let i = this.filled; i < stop; i++) {
        const path = files[i].toLowerCase();
        lower[i] = path;
        const at = path.lastIndexOf("/") + 1;
        nameAt[i] = at;
        if (this.lastId < 0 || at !== this.lastDir.length || !path.startsWith(this.lastDir)) {
          const dir = path.slice(0, at);
          let id = ids.get(dir);
          if (id === undefined) ids.set(dir, (id = dirs.push(dir) - 1));
          this.lastDir = dir;
          this.lastId = id;
        }
        dirOf[i] = this.lastId;
      }
      this.filled = stop;
      if (this.filled < files.length && performance.now() >= until) return false;
    }
    return true;
  }
}
let prepared: Prepared | undefined;

/**
 * A query made ready once per keystroke. The fuzzy match of a path's folder is the same for
 * every file in it (a monorepo has ~10 files a folder), so it is worked out once per folder.
 */
class Query {
  readonly parts: string[];
  private taken: Int8Array | undefined;

  constructor(
    readonly q: string,
    private readonly data: Prepared,
  ) {
    this.parts = q.split("/").filter((p) => p !== "");
  }

  /** Called once the list is prepared (its folders known). */
  ready(): void {
    // -1: not worked out yet. More than 126 parts is no query a person types.
    this.taken ??= new Int8Array(this.data.dirs.length).fill(-1);
  }

  /** 0 name starts with it, 1 path starts with it, 2 path contains it, 3 fuzzy on segments; -1 none. */
  rank(i: number): number {
    const { lower, nameAt, dirOf, dirs } = this.data;
    const path = lower[i];
    const q = this.q;
    // No slice per path: this runs for each of 100,000 paths on a keystroke.
    if (path.startsWith(q, nameAt[i])) return 0;
    if (path.startsWith(q)) return 1;
    if (path.includes(q)) return 2;
    const parts = this.parts;
    const d = dirOf[i];
    const memo = this.taken as Int8Array;
    let taken = memo[d];
    if (taken < 0) memo[d] = taken = Math.min(126, partsTaken(dirs[d], parts));
    // The name is the one segment left: it takes at most one more part.
    if (taken >= parts.length) return 3;
    return taken === parts.length - 1 && subsequence(path, parts[taken], nameAt[i]) >= 0 ? 3 : -1;
  }
}

/**
 * The paths that can match a query are a subset of those that matched any prefix of it (every
 * rank is monotone in the query), so typing on narrows the last finished answer instead of the
 * whole 100,000-path list: the first keystroke scans it, later ones a fraction.
 */
let narrowed: { files: readonly string[]; q: string; candidates: Int32Array | undefined } | undefined;

type Ranked = { path: string; rank: number };
const before = (a: Ranked, b: Ranked) =>
  a.rank - b.rank || a.path.length - b.path.length || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/** One query's scan over a list, resumable. */
export class FileScan {
  private readonly query: Query;
  private readonly data: Prepared;
  /** Indexes still to scan (all of them when undefined). */
  private readonly from: Int32Array | undefined;
  private readonly total: number;
  private at = 0;
  /** Indexes that matched (undefined for the empty query: everything matches). */
  private readonly candidates: Int32Array | undefined;
  private found = 0;
  private readonly best: Ranked[] = [];

  constructor(
    private readonly files: readonly string[],
    typed: string,
  ) {
    if (prepared?.files !== files) prepared = new Prepared(files);
    const q = typed.toLowerCase();
    this.query = new Query(q, prepared);
    this.data = prepared;
    this.from =
      narrowed && narrowed.files === files && q.startsWith(narrowed.q) ? narrowed.candidates : undefined;
    this.total = this.from ? this.from.length : files.length;
    this.candidates = q === "" ? undefined : new Int32Array(this.total);
  }

  /** Scans until done or until `budgetMs` has passed; true when done. */
  step(budgetMs = Number.POSITIVE_INFINITY): boolean {
    const until = performance.now() + budgetMs;
    if (!this.data.fill(until)) return false;
    const { files, from, candidates, best, query } = this;
    query.ready();
    while (this.at < this.total) {
      const stop = Math.min(this.total, this.at + CHUNK);
      for (let k = this.at; k < stop; k++) {
        const i = from ? from[k] : k;
        const rank = query.rank(i);
        if (rank < 0) continue;
        if (candidates) candidates[this.found++] = i;
        const path = files[i];
        // No worse than the 50th (checked before any allocation: most paths stop here).
        const worst = best.length === MAX_FILE_ITEMS ? best[MAX_FILE_ITEMS - 1] : undefined;
        if (worst && rank >= worst.rank) {
          if (rank > worst.rank || path.length > worst.path.length) continue;
          if (path.length === worst.path.length && path >= worst.path) continue;
        }
        const r = { path, rank };
        let pos = best.length;
        while (pos > 0 && before(r, best[pos - 1]) < 0) pos--;
        best.splice(pos, 0, r);
        if (best.length > MAX_FILE_ITEMS) best.pop();
      }
      this.at = stop;
      if (this.at < this.total && performance.now() >= until) return false;
    }
    narrowed = { files, q: query.q, candidates: candidates?.subarray(0, this.found) };
    return true;
  }

  /** The best paths, best first (all of them once `step` returned true). */
  paths(): string[] {
    return this.best.map((r) => r.path);
  }
}
