// Where the `.git` and `.tern` entries of a workspace are, at any depth (R-SBX-2, §10), found
// again before every sandboxed command: a repository cloned or made by an earlier command of the
// session is protected from the next one on. Cheap on a repeat: a folder whose modification time
// has not changed has the entries it had (adding, removing or renaming an entry changes it), so
// a repeat costs one stat per folder instead of one read. A listing read within the file
// system's timestamp tick of its folder's last change is read again next time: a change in the
// same tick leaves the time as it was (git's "racy" index entries; vocab/racy-stamps.ts, shared
// with the checkpoint's folder stamps). Bounded in folders searched, like the first walk.
import { type Dirent, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { stampTrusted } from "../vocab/racy-stamps.js";

export const PROTECTED = new Set([".git", ".tern"]);
/** Folders searched for nested repositories last: large, and seldom where a person runs git. */
const LATER = new Set(["node_modules", ".venv", "venv", "__pycache__", "target", "dist", "build"]);
/** A bound on the search (a giant tree keeps what was found); ~100 ms of readdir, less of stat. */
const MAX_FOLDERS = 20_000;

interface Listing {
  mtimeMs: number;
  /** Wall clock taken before the folder's time was read (so never later than the reading). */
  readAt: number;
  /** Sub-folders, in the order they were read. */
  folders: string[];
  /** The `.git`/`.tern` entries of this folder (names). */
  protectedNames: string[];
}

/** A `.git`/`.tern` entry found, and the folder that holds it. */
export interface ProtectedEntry {
  path: string;
  folder: string;
  name: string;
}

export interface ScanOptions {
  /** Folders searched at most (default MAX_FOLDERS). */
  maxFolders?: number;
  /**
   * Told once, in one line, the first time the bound leaves folders unsearched: a `.git` past it
   * is not protected, and the person should know (R-SBX-2).
   */
  onCapped?: (text: string) => void;
}

export class ProtectedScan {
  private listings = new Map<string, Listing>();
  private readonly maxFolders: number;
  private told = false;

  constructor(
    private readonly workspace: string,
    private readonly options: ScanOptions = {},
  ) {
    this.maxFolders = options.maxFolders ?? MAX_FOLDERS;
  }

  /** The entries now, breadth first, dependency and build folders after the rest. */
  find(): ProtectedEntry[] {
    const found: ProtectedEntry[] = [];
    const queue = [this.workspace];
    const later: string[] = [];
    const kept = new Map<string, Listing>();
    let i = 0;
    for (; kept.size < this.maxFolders; i++) {
      if (i === queue.length) {
        if (later.length === 0) break;
        queue.push(...later.splice(0));
      }
      const folder = queue[i];
      const listing = this.listingOf(folder);
      if (!listing) continue;
      kept.set(folder, listing);
      for (const name of listing.protectedNames) found.push({ path: join(folder, name), folder, name });
      for (const sub of listing.folders) (LATER.has(sub) ? later : queue).push(join(folder, sub));
    }
    // Folders gone or beyond the bound are forgotten.
    this.listings = kept;
    if (i < queue.length || later.length > 0) this.tellCapped();
    return found;
  }

  private tellCapped(): void {
    if (this.told) return;
    this.told = true;
    this.options.onCapped?.(
      `sandbox: the workspace has more than ${this.maxFolders} folders; only the first ${this.maxFolders} ` +
        "(dependency and build folders last) were searched for .git and .tern to keep read-only",
    );
  }

  private listingOf(folder: string): Listing | undefined {
    let mtimeMs: number;
    const readAt = Date.now();
    try {
      mtimeMs = statSync(folder).mtimeMs;
    } catch {
      return undefined;
    }
    const cached = this.listings.get(folder);
    if (cached && cached.mtimeMs === mtimeMs && stampTrusted(mtimeMs, cached.readAt)) return cached;
    let entries: Dirent[];
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      return undefined;
    }
    const listing: Listing = { mtimeMs, readAt, folders: [], protectedNames: [] };
    for (const entry of entries) {
      if (PROTECTED.has(entry.name)) listing.protectedNames.push(entry.name);
      // A symlinked folder is not entered: it may lead out of the workspace, or round in a loop.
      else if (entry.isDirectory()) listing.folders.push(entry.name);
    }
    return listing;
  }
}
