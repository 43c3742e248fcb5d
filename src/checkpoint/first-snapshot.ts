// Staging a full first snapshot with each file read and hashed once. fast-import writes the
// blobs (one process per core, object-preload.ts) and names each by a mark; the session index is
// then written here (index-writer.ts) from those ids and the stat taken of each file as it was
// opened, before it was read, instead of `update-index` reading and hashing every file again.
// A file whose mtime is within its file system's timestamp tick of that reading gets size 0
// (git's "smudged" entry: the next status compares its content), so a write in the same tick
// is never hidden. What this path cannot judge goes to update-index as before: links, files
// gone or not regular, and below a `.gitattributes` files holding a CR (git may convert their
// line endings) or all files where it names `ident`, `filter` or `working-tree-encoding`.
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { join } from "node:path";
import { stampTrusted } from "../vocab/racy-stamps.js";
import { hasConflicts, type NewIndexEntry, sortEntries, writeIndexFile } from "./index-writer.js";
import { importBlobs } from "./object-preload.js";
import { MAX_SNAPSHOT_FILE_BYTES } from "./what-to-keep.js";

interface ShadowRepo {
  readonly workTree: string;
  readonly indexFile: string;
  git(args: string[], input?: string): Promise<{ stdout: string }>;
  gitCommand(args: string[]): { args: string[]; env: NodeJS.ProcessEnv };
}

/** An index this small holds only what a first snapshot put before staging (nested seeds, placeholders). */
const MAX_PRIOR_INDEX_BYTES = 256 * 1024;
/**
 * Entries carried over lose their stat (the next status reads them again): more than this (a
 * split index's file is small, its shared part not), and update-index stages as before.
 */
const MAX_PRIOR_ENTRIES = 1000;

/** Off: every path is staged by update-index, as before (tests compare the two ways). */
export const inProcessIndex = { on: true };

/** A file read for fast-import: its content and the index entry it will have (id filled later). */
export interface ReadFile {
  content: Buffer;
  entry: NewIndexEntry;
}

/**
 * A regular file's content and entry, or undefined (gone, a link, a FIFO, over the limit). Opened
 * without following a link and without blocking; the stat is of what was opened, taken before
 * the read, and `readAt` (wall clock) before both.
 */
export function readForIndex(workTree: string, path: string): ReadFile | undefined {
  let fd: number | undefined;
  try {
    const readAt = Date.now();
    fd = openSync(join(workTree, path), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const st = fstatSync(fd, { bigint: true });
    if (!st.isFile() || st.size > BigInt(MAX_SNAPSHOT_FILE_BYTES)) return undefined;
    const content = readFileSync(fd);
    const trusted = stampTrusted(Number(st.mtimeMs), readAt) && BigInt(content.length) === st.size;
    const entry: NewIndexEntry = {
      path,
      mode: st.mode & 0o100n ? 0o100755 : 0o100644,
      id: "",
      ctimeSec: Number(st.ctimeNs / 1_000_000_000n),
      ctimeNsec: Number(st.ctimeNs % 1_000_000_000n),
      mtimeSec: Number(st.mtimeNs / 1_000_000_000n),
      mtimeNsec: Number(st.mtimeNs % 1_000_000_000n),
      dev: Number(st.dev & 0xffffffffn),
      ino: Number(st.ino & 0xffffffffn),
      uid: Number(st.uid),
      gid: Number(st.gid),
      size: trusted ? Number(st.size & 0xffffffffn) : 0,
      assumeValid: false,
    };
    return { content, entry };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Attributes that change a file's content on the way in beyond line endings (macros included). */
const REWRITING = /\b(ident|working-tree-encoding|filter)\b/;

interface AttributeFolder {
  /** `""` for the root, else `dir/`. */
  folder: string;
  /** Its `.gitattributes` may change more than line endings (or could not be read). */
  rewrites: boolean;
}

/**
 * The folders holding a `.gitattributes` (an ignored one too: git reads it all the same), among
 * the folders of `paths` and their parents.
 */
function attributeFolders(workTree: string, paths: readonly string[]): AttributeFolder[] {
  const folders = new Set<string>([""]);
  for (const path of paths) {
    for (let cut = path.lastIndexOf("/"); cut > 0; cut = path.lastIndexOf("/", cut - 1)) {
      const folder = path.slice(0, cut + 1);
      if (folders.has(folder)) break;
      folders.add(folder);
    }
  }
  const found: AttributeFolder[] = [];
  for (const folder of folders) {
    const file = join(workTree, `${folder}.gitattributes`);
    if (!existsSync(file)) continue;
    let rewrites = true;
    try {
      rewrites = REWRITING.test(readFileSync(file, "latin1"));
    } catch {
      // Unreadable: judged as rewriting.
    }
    found.push({ folder, rewrites });
  }
  return found;
}

/** The index's entries before staging (few), or undefined when they cannot be carried over. */
async function priorEntries(repo: ShadowRepo): Promise<NewIndexEntry[] | undefined> {
  if (!existsSync(repo.indexFile)) return [];
  if (statSync(repo.indexFile).size > MAX_PRIOR_INDEX_BYTES) return undefined;
  const { stdout } = await repo.git(["ls-files", "-z", "--stage", "-v"]);
  const lines = stdout.split("\0");
  if (lines.length > MAX_PRIOR_ENTRIES + 1) return undefined;
  const entries: NewIndexEntry[] = [];
  for (const line of lines) {
    if (line.length === 0) continue;
    // "<tag> <mode> <id> <stage>\t<path>": only plain (H) and assume-unchanged (h) entries.
    const match = /^([Hh]) ([0-7]+) ([0-9a-f]{40}) 0\t(.*)$/s.exec(line);
    if (!match) return undefined;
    entries.push({
      path: match[4],
      mode: Number.parseInt(match[2], 8),
      id: match[3],
      ...{ ctimeSec: 0, ctimeNsec: 0, mtimeSec: 0, mtimeNsec: 0, dev: 0, ino: 0, uid: 0, gid: 0, size: 0 },
      assumeValid: match[1] === "h",
    });
  }
  return entries;
}

/** Parses fast-import's exported marks (`:<mark> <id>` lines). */
function readMarks(file: string): Map<number, string> {
  const marks = new Map<number, string>();
  for (const line of readFileSync(file, "latin1").split("\n")) {
    const space = line.indexOf(" ");
    if (line[0] === ":" && space > 0) marks.set(Number(line.slice(1, space)), line.slice(space + 1));
  }
  return marks;
}

/**
 * Stages the files of a first snapshot: blobs through fast-import, the index written here. The
 * paths it leaves to update-index are returned; undefined means nothing was written to the
 * index (the caller stages every path as before).
 */
export async function stageFirstSnapshot(repo: ShadowRepo, paths: string[]): Promise<string[] | undefined> {
  if (!inProcessIndex.on) return undefined;
  const prior = await priorEntries(repo).catch(() => undefined);
  if (!prior) return undefined;
  // Below a `.gitattributes`, git may convert line endings on the way in: a file without a CR
  // is its own blob; one with a CR, or below attributes that rewrite more, goes to update-index.
  const attributes = attributeFolders(repo.workTree, paths);
  const below = (p: string, rewrites: boolean) =>
    attributes.some((a) => (rewrites ? a.rewrites : true) && p.startsWith(a.folder));
  const rewriting = attributes.some((a) => a.rewrites);
  const direct = rewriting ? paths.filter((p) => !below(p, true)) : paths;
  const left = rewriting ? paths.filter((p) => below(p, true)) : [];
  if (direct.length === 0) return undefined;
  const lineEnds = attributes.length > 0 ? direct.map((p) => below(p, false)) : undefined;
  const read: (NewIndexEntry | undefined)[] = new Array(direct.length);
  const marksFile = `${repo.indexFile}.marks`;
  try {
    const imported = await importBlobs(
      repo,
      direct.length,
      (i) => {
        const file = readForIndex(repo.workTree, direct[i]);
        // A CR that git's line-ending conversion may drop: not imported, left to update-index.
        const converts = file && lineEnds?.[i] && file.content.includes(13);
        read[i] = converts ? undefined : file?.entry;
        return converts ? undefined : file?.content;
      },
      marksFile,
    );
    if (!imported) return undefined;
    const marks = new Map<number, string>();
    for (const part of imported) for (const [mark, id] of readMarks(part)) marks.set(mark, id);
    const staged = new Set<string>();
    const entries: NewIndexEntry[] = [];
    for (let i = 0; i < direct.length; i++) {
      const entry = read[i];
      const id = marks.get(i + 1);
      if (!entry || !id) {
        left.push(direct[i]);
        continue;
      }
      entry.id = id;
      entries.push(entry);
      staged.add(direct[i]);
    }
    for (const entry of prior) if (!staged.has(entry.path)) entries.push(entry);
    const sorted = sortEntries(entries);
    if (hasConflicts(sorted)) return undefined;
    writeIndexFile(repo.indexFile, sorted);
    return left;
  } finally {
    for (let k = 0; k < 8; k++) rmSync(`${marksFile}.${k}`, { force: true });
  }
}
