// The workspace's files for front ends (`@file` completion, R-BIG-3): the same listing the glob
// and grep tools use (ripgrep's walk when on the PATH), so what the ignore files hide from the
// model is hidden from the menu too. Built in the background (at start, and again after tool
// batches or when it has aged): the UI reads whatever list is there and never waits for one.
// Bounded in time and entries: a huge tree (a home folder) gives no menu rather than a stalled
// one, and the index says why (the composer prints it once), and lists it again less often.
import { relative, resolve, sep } from "node:path";
import { ListingStopped, listFiles } from "../tools/builtin/file-walk.js";

/** Paths listed at most (beyond that the tree is not a workspace the menu can serve). */
export const MAX_INDEXED_FILES = 300_000;
const LISTING_MS = 10_000;
/** A tree too big to list is tried again after this long at most (each try can take 10 s). */
const SKIPPED_RETRY_MS = 5 * 60_000;

/** Paths relative to `cwd`, `/`-separated, sorted; empty when it cannot be listed. */
export async function workspaceFiles(cwd: string, limit = MAX_INDEXED_FILES): Promise<string[]> {
  try {
    return await listedFiles(cwd, limit);
  } catch {
    return [];
  }
}

/** A listing stopped at its bounds: more than `limit` files, or the time bound. */
export class ListingSkipped extends Error {
  constructor(
    readonly why: "timeout" | "too_many",
    readonly limit: number,
  ) {
    super(
      why === "too_many"
        ? `no @file menu here: the workspace has more than ${limit.toLocaleString("en-US")} files`
        : `no @file menu here: listing the workspace's files took more than ${LISTING_MS / 1000} s`,
    );
  }
}

/** As `workspaceFiles`, but a tree over `limit` files or the time bound throws `ListingSkipped`. */
export async function listedFiles(cwd: string, limit = MAX_INDEXED_FILES): Promise<string[]> {
  try {
    const files = await listFiles(cwd, "**/*", cwd, { maxEntries: limit, timeoutMs: LISTING_MS });
    // A prefix cut, not path.relative: this runs on the UI's thread, 100,000 times.
    const prefix = `${resolve(cwd)}${sep}`.replace(/\/+$/, "/");
    const rel = (abs: string) => (abs.startsWith(prefix) ? abs.slice(prefix.length) : relative(cwd, abs));
    return sep === "/" ? files.map(rel) : files.map((abs) => relative(cwd, abs).split(sep).join("/"));
  } catch (err) {
    if (err instanceof ListingStopped && err.why !== "cancelled") throw new ListingSkipped(err.why, limit);
    return [];
  }
}

/** A workspace's file list, kept fresh in the background. */
export class WorkspaceFileIndex {
  private files: readonly string[] | undefined;
  private listedAt = 0;
  private running: Promise<void> | undefined;
  private again = false;
  /** The newest listing stopped at its bounds: why, as a notice (no menu meanwhile). */
  skipped: string | undefined;

  constructor(
    private readonly cwd: string,
    private readonly onUpdate: () => void = () => undefined,
    private readonly list: (cwd: string) => Promise<string[]> = listedFiles,
  ) {}

  /** The newest list, if one was made (never waits). */
  current(): readonly string[] | undefined {
    return this.files;
  }

  /**
   * Older than `ms` (or never listed), and no listing under way: the one running is fresh (asking
   * again at the first `@` of a session, while the start's listing ran, listed 100,000 files twice
   * on the UI's thread while the person typed).
   */
  olderThan(ms: number): boolean {
    if (this.running) return false;
    const after = this.skipped ? Math.max(ms, SKIPPED_RETRY_MS) : ms;
    return this.files === undefined || performance.now() - this.listedAt > after;
  }

  /** Lists again in the background; a call while a listing runs makes one more after it. */
  refresh(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.list(this.cwd)
      .then(
        (files) => {
          this.skipped = undefined;
          return files;
        },
        (err) => {
          this.skipped = err instanceof ListingSkipped ? `notice: ${err.message}` : undefined;
          return [] as string[];
        },
      )
      .then((files) => {
        this.files = files;
        this.listedAt = performance.now();
        this.running = undefined;
        this.onUpdate();
        if (this.again) {
          this.again = false;
          this.refresh();
        }
      });
  }

  /** Resolves when no listing is running (for tests and benchmarks). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }
}
