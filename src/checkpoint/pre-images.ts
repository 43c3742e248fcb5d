// What a file was before a tool call wrote it, for a first snapshot still running beside the
// call (R-CKPT-4): that snapshot may read the file after the write, so it would hold the turn's
// change as the "before". The engine keeps each target's pre-image right before the call runs;
// when the snapshot has read everything it closes the set and puts the pre-images in its index
// instead of what it read. A pre-image that cannot be kept exactly is refused (undefined): the
// caller then counts the call as one whose writes are unknown.
import { lstat, readdir, readFile, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, sep } from "node:path";
import { nul } from "./git-process.js";
import { tooBig } from "./what-to-keep.js";

export type PreImage = { kind: "file"; bytes: Buffer; executable: boolean } | { kind: "absent" };

/** Files that change what git lists or how it stores: an edit of one changes the whole listing. */
const LISTING_FILES = new Set([".gitignore", ".gitattributes"]);

interface ShadowRepo {
  git(args: string[], input?: string | Buffer): Promise<{ stdout: string }>;
}

/**
 * The pre-image of `absolute` and its path in the snapshot (relative to the work tree's real
 * path, so a path through a link names the file really written). "outside": no snapshot holds
 * it. Undefined: not kept exactly (a link or other non-regular file, over the big-file size, an
 * ignore or attributes file, a new file in an empty folder, whose folder mark the snapshot may
 * have dropped).
 */
export async function readPreImage(
  workTree: string,
  absolute: string,
): Promise<{ path: string; image: PreImage } | "outside" | undefined> {
  if (LISTING_FILES.has(basename(absolute))) return undefined;
  const root = await realpath(workTree);
  const st = await lstat(absolute).catch(() => undefined);
  if (st && !st.isFile()) return undefined;
  // The nearest folder that exists: the file's own, or the one its missing folders will go in.
  let folder = dirname(absolute);
  while (!(await lstat(folder).catch(() => undefined))) folder = dirname(folder);
  const real = join(await realpath(folder), relative(folder, absolute));
  const rel = relative(root, real);
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return "outside";
  const path = rel.split(sep).join("/");
  if (!st) {
    if ((await readdir(folder).catch(() => ["?"])).length === 0) return undefined;
    return { path, image: { kind: "absent" } };
  }
  if (tooBig(absolute)) return undefined;
  return {
    path,
    image: { kind: "file", bytes: await readFile(absolute), executable: (st.mode & 0o111) !== 0 },
  };
}

/** The pre-images handed to one first snapshot; the first one of a path wins. */
export class PreImages {
  private readonly images = new Map<string, PreImage>();
  private isClosed = false;

  /** Once closed the snapshot has read every file: a later write cannot reach it. */
  get closed(): boolean {
    return this.isClosed;
  }

  /** A later batch's pre-image of a path is what an earlier batch wrote: only the first is kept. */
  add(path: string, image: PreImage): void {
    if (!this.isClosed && !this.images.has(path)) this.images.set(path, image);
  }

  close(): Map<string, PreImage> {
    this.isClosed = true;
    return this.images;
  }
}

/**
 * Puts the pre-images in the index in place of what the snapshot staged: an absent one is
 * removed, a file's bytes are written as a blob (as if at its path, so `.gitattributes`
 * conversions apply as when staging) and entered with its mode, but only where the index holds
 * the path (one the snapshot leaves out, ignored or TERN_HOME, stays out). The entries carry no
 * stat data, so the next snapshot compares the file again and stages what the call wrote.
 * Returns the paths whose entries were replaced.
 */
export async function applyPreImages(repo: ShadowRepo, images: Map<string, PreImage>): Promise<string[]> {
  const absent = [...images].filter(([, image]) => image.kind === "absent").map(([path]) => path);
  if (absent.length > 0) await repo.git(["update-index", "-z", "--force-remove", "--stdin"], nul(absent));
  const files = [...images].filter(([, image]) => image.kind === "file").map(([path]) => path);
  if (files.length === 0) return [];
  const listed = await repo.git(["ls-files", "-z", "--", ...files.map((path) => `:(literal)${path}`)]);
  const held = new Set(listed.stdout.split("\0").filter((p) => p.length > 0));
  const lines: string[] = [];
  for (const path of files.filter((p) => held.has(p))) {
    const image = images.get(path) as Extract<PreImage, { kind: "file" }>;
    const blob = (
      await repo.git(["hash-object", "-w", "--stdin", `--path=${path}`], image.bytes)
    ).stdout.trim();
    lines.push(`${image.executable ? "100755" : "100644"} ${blob}\t${path}\0`);
  }
  if (lines.length > 0) await repo.git(["update-index", "-z", "--index-info"], lines.join(""));
  return [...held];
}
