// Writing a git index file (version 2 of git's Documentation/gitformat-index.txt) in-process, for
// a first snapshot whose blobs were written and named by fast-import (first-snapshot.ts): with
// the stat data taken before each file was read, the next `git status` finds the files unchanged
// by their stat alone, where `update-index` would read and SHA-1 hash all of them a second time.
// git rewrites it in its configured form (version 4, split) the next time it writes the index.
import { createHash } from "node:crypto";
import { renameSync, writeFileSync } from "node:fs";

/** One stage-0 entry; stat fields as git keeps them (each truncated to 32 bits). */
export interface NewIndexEntry {
  /** The path (`/`-separated, workspace-relative); written as UTF-8. */
  path: string;
  /** 0o100644, 0o100755 or 0o120000. */
  mode: number;
  /** The blob's id, 40 hex digits. */
  id: string;
  ctimeSec: number;
  ctimeNsec: number;
  mtimeSec: number;
  mtimeNsec: number;
  dev: number;
  ino: number;
  uid: number;
  gid: number;
  /** 0 makes git compare the content rather than trust the stat (a "smudged" racy entry). */
  size: number;
  assumeValid: boolean;
}

const HEADER = 12;
const FIXED = 62;
const MAX_NAME_FLAG = 0xfff;

/** Characters whose UTF-16 order differs from their UTF-8 byte order (surrogates and above). */
const BEYOND_ORDER = /[\ud800-\uffff]/;

/** Entries ordered as git orders them: by path bytes (UTF-8), a prefix first. */
export function sortEntries(entries: NewIndexEntry[]): NewIndexEntry[] {
  // Below U+D800, UTF-16 code units order strings as their UTF-8 bytes do: no Buffer per path.
  if (!entries.some((e) => BEYOND_ORDER.test(e.path)))
    return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return entries.sort((a, b) => Buffer.compare(Buffer.from(a.path, "utf8"), Buffer.from(b.path, "utf8")));
}

/**
 * Whether sorted entries hold a path twice or a path and a path inside it (a file and a folder
 * of one name): git refuses such an index.
 */
export function hasConflicts(sorted: readonly NewIndexEntry[]): boolean {
  for (let i = 1; i < sorted.length; i++) {
    const before = sorted[i - 1].path;
    if (before === sorted[i].path) return true;
    // "a" then "a/b", possibly with "a-x" or "a.x" between them: look ahead while the prefix holds.
    for (let j = i; j < sorted.length && sorted[j].path.startsWith(before); j++)
      if (sorted[j].path[before.length] === "/") return true;
  }
  return false;
}

const u32 = (n: number) => n >>> 0;

/** The bytes of an index holding `sorted` (already in git's order), its SHA-1 trailer included. */
export function indexBytes(sorted: readonly NewIndexEntry[]): Buffer {
  const names = sorted.map((e) => Buffer.byteLength(e.path, "utf8"));
  let length = HEADER;
  for (const n of names) length += Math.floor((FIXED + n + 8) / 8) * 8;
  const buf = Buffer.alloc(length + 20);
  buf.write("DIRC", 0, "latin1");
  buf.writeUInt32BE(2, 4);
  buf.writeUInt32BE(sorted.length, 8);
  let at = HEADER;
  for (let i = 0; i < sorted.length; i++) {
    const e = sorted[i];
    const name = names[i];
    buf.writeUInt32BE(u32(e.ctimeSec), at);
    buf.writeUInt32BE(u32(e.ctimeNsec), at + 4);
    buf.writeUInt32BE(u32(e.mtimeSec), at + 8);
    buf.writeUInt32BE(u32(e.mtimeNsec), at + 12);
    buf.writeUInt32BE(u32(e.dev), at + 16);
    buf.writeUInt32BE(u32(e.ino), at + 20);
    buf.writeUInt32BE(e.mode, at + 24);
    buf.writeUInt32BE(u32(e.uid), at + 28);
    buf.writeUInt32BE(u32(e.gid), at + 32);
    buf.writeUInt32BE(u32(e.size), at + 36);
    buf.write(e.id, at + 40, 20, "hex");
    const flags = (e.assumeValid ? 0x8000 : 0) | Math.min(name, MAX_NAME_FLAG);
    buf.writeUInt16BE(flags, at + 60);
    buf.write(e.path, at + FIXED, name, "utf8");
    // The rest (1 to 8 NULs up to a multiple of 8) is already zero.
    at += Math.floor((FIXED + name + 8) / 8) * 8;
  }
  createHash("sha1").update(buf.subarray(0, length)).digest().copy(buf, length);
  return buf;
}

/** Replaces `file` with an index of `sorted` (written beside it, then renamed over it). */
export function writeIndexFile(file: string, sorted: readonly NewIndexEntry[]): void {
  const temp = `${file}.tern-new`;
  writeFileSync(temp, indexBytes(sorted), { mode: 0o600 });
  renameSync(temp, file);
}
