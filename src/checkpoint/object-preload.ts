// The objects of a first snapshot, written before it is staged. `update-index` alone hashes,
// compresses and writes 100,000 files on one core, and for each small file streamed into a pack
// it sets up a new zlib stream (its allocation and page faults cost more than the compression):
// a 100,000-file tree took 86 s under load. Here `git fast-import` (one pack, no per-file set-up)
// takes the files' contents, one process per core, into packs stored uncompressed (below). A
// first snapshot then writes the index itself from the blobs' marks (first-snapshot.ts); else
// `update-index` finds every object present and only hashes (it still decides each blob itself,
// so a file that changed meanwhile, or that `.gitattributes` converts, is right: an object written
// here that nothing names is only a few bytes lost). Only regular files are read (never a FIFO or
// a link).
import { spawn } from "node:child_process";
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { gitProgram } from "./git-process.js";
import { MAX_SNAPSHOT_FILE_BYTES } from "./what-to-keep.js";

interface ShadowRepo {
  readonly workTree: string;
  /** The command line and environment runGit would use (git-process.ts). */
  gitCommand(args: string[]): { args: string[]; env: NodeJS.ProcessEnv };
}

/** Below this many files, update-index's own writing is fast enough. */
export const PRELOAD_MIN_FILES = 1000;
/** Files read between two turns of the event loop (~250 KB of this tree's files; a few ms). */
const BATCH = 64;
const NEWLINE = Buffer.from("\n");
/**
 * zlib's fastest level. Level 0 (stored) saved ~2 s of fast-import's CPU on the 400 MB tree, once
 * per workspace, but left a pack as big as the files (~370 MB instead of ~135 MB) for good.
 */
const PACK_COMPRESSION = 1;
/**
 * glibc's malloc gives freed memory at the heap's top back to the kernel (above 128 KB) and takes
 * it again for the next blob: fast-import made 160,000 `brk` calls for 50,000 files, and their
 * page faults cost as much CPU as its hashing (1.3 s of 3). Kept, the heap is reused.
 */
const KEEP_FREED_MEMORY = { MALLOC_TRIM_THRESHOLD_: "268435456", MALLOC_MMAP_THRESHOLD_: "268435456" };

/**
 * A regular file's content, or undefined (gone, a link, a FIFO, a device, over the limit). Opened
 * without following a link and without blocking, then judged by what was opened: no race with a
 * path swapped for a FIFO between a stat and the read.
 */
function regularContent(path: string): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_SNAPSHOT_FILE_BYTES) return undefined;
    return readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Reads the `i`th file of the list: its content, or undefined to pass it over. */
export type BlobReader = (i: number) => Buffer | undefined;

/** One batch of fast-import's input: a `blob` command (marked `:i+1` with marks) per file read. */
function blobCommands(from: number, to: number, read: BlobReader, marks: boolean): Buffer {
  const parts: Buffer[] = [];
  for (let i = from; i < to; i++) {
    const content = read(i);
    if (!content) continue;
    const mark = marks ? `mark :${i + 1}\n` : "";
    parts.push(Buffer.from(`blob\n${mark}data ${content.length}\n`), content, NEWLINE);
  }
  return Buffer.concat(parts);
}

/** Streams files `from`..`to` into one `fast-import`; resolves true when it finished cleanly. */
function importPart(
  repo: ShadowRepo,
  from: number,
  to: number,
  read: BlobReader,
  marksFile: string | undefined,
): Promise<boolean> {
  const { args, env } = repo.gitCommand([
    "-c",
    `core.compression=${PACK_COMPRESSION}`,
    "-c",
    `pack.compression=${PACK_COMPRESSION}`,
    "fast-import",
    "--quiet",
    "--depth=0",
    "--done",
    ...(marksFile ? [`--export-marks=${marksFile}`] : []),
  ]);
  const git = gitProgram(repo.workTree);
  if (!git) return Promise.resolve(false);
  const child = spawn(git, args, {
    cwd: repo.workTree,
    env: { ...env, ...KEEP_FREED_MEMORY },
    stdio: ["pipe", "ignore", "ignore"],
  });
  const exited = new Promise<boolean>((resolve) => {
    child.on("error", () => resolve(false));
    child.on("close", (code) => resolve(code === 0));
  });
  const stdin = child.stdin;
  let broken = false;
  stdin.on("error", () => {
    broken = true;
  });
  const feed = async () => {
    // Read synchronously a batch at a time (a few ms), yielding between batches: a promise per
    // file (open, stat, read, close through the thread pool) cost more than git's own work.
    for (let i = from; i < to && !broken; i += BATCH) {
      const chunk = blobCommands(i, Math.min(to, i + BATCH), read, marksFile !== undefined);
      if (!stdin.write(chunk)) await new Promise((resolve) => stdin.once("drain", resolve));
      else await new Promise((resolve) => setImmediate(resolve));
    }
    stdin.end(broken ? undefined : "done\n");
  };
  return feed().then(
    () => exited,
    () => {
      child.kill();
      return false;
    },
  );
}

/**
 * Writes the blobs of `count` files (read by `read`) into the shadow's object store, split over
 * the cores. With `marksFile`, each blob is marked `:i+1` and the marks files (one per part,
 * `<marksFile>.<k>`) are returned; undefined when a part failed (some objects may be missing).
 */
export async function importBlobs(
  repo: ShadowRepo,
  count: number,
  read: BlobReader,
  marksFile?: string,
): Promise<string[] | undefined> {
  const parts = Math.max(1, Math.min(4, availableParallelism()));
  const size = Math.ceil(count / parts);
  const files = Array.from({ length: parts }, (_, k) => (marksFile ? `${marksFile}.${k}` : undefined));
  const done = await Promise.all(
    files.map((file, k) => importPart(repo, k * size, Math.min(count, (k + 1) * size), read, file)),
  );
  return done.every(Boolean) ? files.filter((f): f is string => f !== undefined) : undefined;
}

/**
 * Writes the blobs of `paths` (workspace-relative) into the shadow's object store, split over
 * the cores. True when every part finished; false means some objects may be missing, and the
 * caller stages as if nothing had been written.
 */
export async function preloadObjects(repo: ShadowRepo, paths: string[]): Promise<boolean> {
  const read = (i: number) => regularContent(join(repo.workTree, paths[i]));
  return (await importBlobs(repo, paths.length, read)) !== undefined;
}
