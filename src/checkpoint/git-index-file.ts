// Reading a git index file (the format of git's Documentation/gitformat-index.txt), only as far
// as a first snapshot needs to judge whether the workspace's own index can start the session's:
// every entry's mode, stage and flags, and where the extensions begin. Versions 2, 3 and 4 (v4's
// paths are prefix-compressed); SHA-1 object ids only (a SHA-256 repository is refused before).
import { createHash } from "node:crypto";

export interface IndexEntry {
  /** The path's bytes, one char per byte (latin1): no UTF-8 decoding of 100,000 paths. */
  rawPath: string;
  /** git's mode word: 0o100644, 0o100755, 0o120000 (link), 0o160000 (gitlink), 0o040000 (sparse folder). */
  mode: number;
  stage: number;
  assumeValid: boolean;
  skipWorktree: boolean;
  intentToAdd: boolean;
}

export interface IndexFile {
  version: number;
  entries: IndexEntry[];
  /** Where the extensions begin (the end of the last entry). */
  entriesEnd: number;
  /** The extensions: four-letter signature and where each lies (header included). */
  extensions: { signature: string; start: number; end: number }[];
}

const HASH_BYTES = 20;
/** ctime, mtime (8 each), dev, ino, mode, uid, gid, size (4 each), the object id, the flags (2). */
const FIXED = 40 + HASH_BYTES + 2;

/** git's offset varint (varint.c): each continuation adds one before shifting. */
function varint(buf: Buffer, at: number): { value: number; next: number } {
  let c = buf[at++];
  let value = c & 127;
  while (c & 128) {
    c = buf[at++];
    value = ((value + 1) << 7) | (c & 127);
  }
  return { value, next: at };
}

/** Parses an index file; throws on anything it does not understand (the caller then falls back). */
export function parseIndexFile(buf: Buffer): IndexFile {
  if (buf.length < 12 + HASH_BYTES || buf.toString("latin1", 0, 4) !== "DIRC")
    throw new Error("not an index");
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) throw new Error(`index version ${version}`);
  const count = buf.readUInt32BE(8);
  const end = buf.length - HASH_BYTES;
  const entries: IndexEntry[] = [];
  let at = 12;
  let previous = "";
  for (let i = 0; i < count; i++) {
    if (at + FIXED > end) throw new Error("index entries run past the file");
    const start = at;
    const mode = buf.readUInt32BE(at + 24);
    const flags = buf.readUInt16BE(at + 60);
    at += FIXED;
    let extended = 0;
    if (flags & 0x4000) {
      if (version < 3) throw new Error("extended flags in a version 2 index");
      extended = buf.readUInt16BE(at);
      at += 2;
    }
    let path: string;
    if (version === 4) {
      const strip = varint(buf, at);
      const nulAt = buf.indexOf(0, strip.next);
      if (nulAt < 0 || strip.value > previous.length) throw new Error("bad v4 path");
      // Paths are bytes: latin1 keeps each byte as one char, so the prefix arithmetic stays exact.
      path = previous.slice(0, previous.length - strip.value) + buf.toString("latin1", strip.next, nulAt);
      at = nulAt + 1;
    } else {
      const nulAt = buf.indexOf(0, at);
      if (nulAt < 0) throw new Error("bad path");
      path = buf.toString("latin1", at, nulAt);
      // 1 to 8 NULs pad the entry to a multiple of 8 bytes.
      at = start + Math.floor((nulAt - start + 8) / 8) * 8;
    }
    previous = path;
    entries.push({
      rawPath: path,
      mode,
      stage: (flags >> 12) & 3,
      assumeValid: (flags & 0x8000) !== 0,
      skipWorktree: (extended & 0x4000) !== 0,
      intentToAdd: (extended & 0x2000) !== 0,
    });
  }
  const entriesEnd = at;
  const extensions: IndexFile["extensions"] = [];
  while (at + 8 <= end) {
    const start = at;
    at += 8 + buf.readUInt32BE(at + 4);
    extensions.push({ signature: buf.toString("latin1", start, start + 4), start, end: at });
  }
  if (at !== end) throw new Error("extensions run past the file");
  return { version, entries, entriesEnd, extensions };
}

/** The index's header and entries with only the extensions named in `keep`, its checksum recomputed. */
export function withExtensions(buf: Buffer, index: IndexFile, keep: readonly string[]): Buffer {
  const parts = [buf.subarray(0, index.entriesEnd)];
  for (const ext of index.extensions)
    if (keep.includes(ext.signature)) parts.push(buf.subarray(ext.start, ext.end));
  const body = Buffer.concat(parts);
  return Buffer.concat([body, createHash("sha1").update(body).digest()]);
}

/** The object ids of the valid cached trees of a `TREE` extension (invalid ones have no id). */
export function cachedTrees(buf: Buffer, index: IndexFile): string[] {
  const ext = index.extensions.find((e) => e.signature === "TREE");
  if (!ext) return [];
  const ids: string[] = [];
  let at = ext.start + 8;
  while (at < ext.end) {
    // A path, NUL, "<entry count> <subtree count>\n", then the id when the count is not -1.
    const newline = buf.indexOf(10, buf.indexOf(0, at));
    if (newline < 0 || newline >= ext.end) throw new Error("bad TREE extension");
    const count = Number(buf.toString("latin1", buf.indexOf(0, at) + 1, newline).split(" ")[0]);
    at = newline + 1;
    if (count >= 0) {
      ids.push(buf.toString("hex", at, at + HASH_BYTES));
      at += HASH_BYTES;
    }
  }
  return ids;
}

/** A raw (latin1) path as text. */
export const pathText = (raw: string): string => Buffer.from(raw, "latin1").toString("utf8");
