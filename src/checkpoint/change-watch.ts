// What changed in a big workspace since the last snapshot, from the kernel instead of a walk
// (R-BIG-1 amended: a later snapshot of 100,000 files costs what changed). One inotify watch per
// folder through node's fs.watch (libuv reads the one inotify descriptor as soon as it is
// readable, no debounce); the paths named since the last `take()` are handed to git as its
// fsmonitor answer (fsmonitor-hook.ts), so `git status` neither lstats the unchanged files nor
// re-reads unchanged folders.
//
// When it cannot vouch for the set, `take()` says "unknown" and git scans everything, as without
// it: before every folder is watched, while a new folder is still being walked, after an event
// without a name or an error, and when the kernel may have dropped events. libuv skips inotify's
// overflow event, so the last case is judged by count: the kernel drops only once
// max_queued_events are waiting, and `take()` drains the queue first, so fewer events than that
// between two takes means none was dropped. The drain is a cookie, as git's own fsmonitor daemon
// does it: a new file in a folder of tern's own (the session's git folder), watched through the
// same inotify descriptor (libuv has one per loop), whose event comes after every event queued
// before it (a shell's writes are queued before it exits). A turn of the event loop was not
// enough: events were seen up to ~200 ms late.
import { type FSWatcher, lstatSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** Folders a workspace may have before it is not watched (each is an inotify watch of the user's). */
const MAX_FOLDERS = 50_000;

function maxQueuedEvents(): number {
  try {
    return Number(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8").trim()) || 16_384;
  } catch {
    return 16_384;
  }
}

/** How long a take waits for its cookie's event before it calls the period unknown. */
const COOKIE_WAIT_MS = 2000;

export class ChangeWatch {
  /** Watched folder ("" the root, else "a/b") → its watcher. */
  private readonly watchers = new Map<string, FSWatcher>();
  private changed = new Set<string>();
  /** A path was made, removed or moved since the last take (not only written): git must look for new files. */
  private appeared = false;
  /** Events since the last take; every one counts towards the kernel's queue. */
  private events = 0;
  /** Everything is unknown until the next take (an event without a name, a moved folder's walk). */
  private unknown = true;
  /** The first walk is still going: the set cannot vouch until every folder is watched. */
  private walking = 0;
  /** Walks of folders that events named (new or moved in): a take waits for them. */
  private readonly folderWalks = new Set<Promise<void>>();
  private started = false;
  private broken = false;
  private readonly limit = Math.floor(maxQueuedEvents() / 2);

  private cookieWatcher: FSWatcher | undefined;
  private cookieSeq = 0;
  private awaited: { name: string; arrived: () => void } | undefined;

  /** `cookieFolder`: a folder of tern's own, outside the workspace, for the drain's cookies. */
  constructor(
    private readonly root: string,
    private readonly cookieFolder: string,
  ) {}

  /** Watches every folder (the workspace's own `.git` left out); false when it cannot (then it is off). */
  async start(): Promise<boolean> {
    if (this.started) return !this.broken;
    this.started = true;
    if (process.platform !== "linux") return this.stop();
    try {
      this.cookieWatcher = watch(this.cookieFolder, { persistent: false }, (_type, name) => {
        if (this.awaited && String(name) === this.awaited.name) this.awaited.arrived();
      });
      this.cookieWatcher.on("error", () => this.stop());
      this.cookieWatcher.unref();
    } catch {
      return this.stop();
    }
    await this.walk("");
    return !this.broken;
  }

  /**
   * The workspace paths (files or folders, relative, "/"-separated) changed since the last take
   * and whether any appeared or went, or undefined when that is not known (git must then compare
   * everything). Starts a new period.
   */
  async take(): Promise<{ paths: string[]; appeared: boolean } | undefined> {
    const drained = await this.drain();
    // New folders found by events: watched before the answer, which names them (git reads them whole).
    while (this.folderWalks.size > 0) await Promise.all([...this.folderWalks]);
    const known = drained && !this.broken && !this.unknown && this.walking === 0 && this.events < this.limit;
    const paths = [...this.changed];
    const appeared = this.appeared;
    this.changed = new Set();
    this.events = 0;
    this.appeared = false;
    this.unknown = this.broken || this.walking > 0;
    return known ? { paths, appeared } : undefined;
  }

  /** Every event queued before now has been handled (false: the cookie's never came). */
  private async drain(): Promise<boolean> {
    if (this.broken || !this.cookieWatcher) return false;
    const name = `watch-cookie-${process.pid}-${++this.cookieSeq}`;
    const path = join(this.cookieFolder, name);
    let timer: NodeJS.Timeout | undefined;
    const arrived = new Promise<boolean>((resolve) => {
      this.awaited = { name, arrived: () => resolve(true) };
      timer = setTimeout(() => resolve(false), COOKIE_WAIT_MS);
    });
    try {
      writeFileSync(path, "");
      return await arrived;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
      this.awaited = undefined;
      rmSync(path, { force: true });
    }
  }

  /** Off for good (no inotify, out of watches, a nested repository, an error). */
  get off(): boolean {
    return this.broken;
  }

  /** Closes every watcher; later takes answer "unknown". */
  stop(): false {
    this.broken = true;
    this.cookieWatcher?.close();
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    return false;
  }

  private async walk(folder: string, first = true): Promise<void> {
    if (first) this.walking++;
    try {
      const queue = [folder];
      for (let i = 0; i < queue.length && !this.broken; i++) {
        const at = queue[i];
        if (!this.watchFolder(at)) return;
        const entries = await readdir(join(this.root, at), { withFileTypes: true }).catch(() => []);
        for (const entry of entries) {
          if (!entry.isDirectory()) continue;
          if (entry.name === ".git") {
            // A nested repository: git decides from inside it what it is; snapshots walk into it.
            if (at !== "") this.stop();
            continue;
          }
          queue.push(at ? `${at}/${entry.name}` : entry.name);
        }
      }
    } finally {
      if (first) this.walking--;
    }
  }

  private watchFolder(folder: string): boolean {
    if (this.watchers.has(folder)) return true;
    if (this.watchers.size >= MAX_FOLDERS) return this.stop();
    try {
      const watcher = watch(join(this.root, folder), { persistent: false }, (type, name) => {
        // libuv: "change" is a write or an attribute; anything else (made, removed, moved) is "rename".
        if (type !== "change") this.appeared = true;
        this.noted(folder, name, type === "change");
      });
      watcher.on("error", () => this.stop());
      watcher.unref();
      this.watchers.set(folder, watcher);
      return true;
    } catch (err) {
      // Gone meanwhile: its parent's event names it. Out of watches (ENOSPC) or anything else: off.
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return true;
      return this.stop();
    }
  }

  private noted(folder: string, name: string | Buffer | null, inPlace: boolean): void {
    this.events++;
    if (this.broken) return;
    // No name, or one that is not UTF-8 (node replaced bytes): the path git must look at is unknown.
    if (name === null || name === undefined || String(name).includes("\uFFFD")) {
      this.unknown = true;
      return;
    }
    const path = folder ? `${folder}/${String(name)}` : String(name);
    if (folder === "" && path === ".git") return;
    this.changed.add(path);
    // A write or an attribute change of a file (libuv reports a folder's as "rename": IN_ISDIR)
    // makes, removes and moves nothing: no lstat on the way of every write.
    if (inPlace) return;
    const isFolder = lstatSync(join(this.root, path), { throwIfNoEntry: false })?.isDirectory() ?? false;
    // A folder went, came or was replaced: its old watchers follow the moved inode, so they go.
    if (this.watchers.has(path)) {
      for (const watched of [...this.watchers.keys()])
        if (watched === path || watched.startsWith(`${path}/`)) {
          this.watchers.get(watched)?.close();
          this.watchers.delete(watched);
        }
    }
    if (!isFolder) return;
    const walked = this.walk(path, false).finally(() => this.folderWalks.delete(walked));
    this.folderWalks.add(walked);
  }
}
