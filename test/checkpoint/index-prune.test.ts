// Old sessions' indexes beside the shadow repository are removed; the newest few, the pruning
// session's own and every session a live tern holds stay.
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KEEP_NEWEST_INDEXES, pruneSessionIndexes } from "../../src/checkpoint/index-prune.js";
import { lockSession, sessionHeld } from "../../src/record/lock.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let folder: string;
beforeEach(() => {
  dirs = makeTempDirs();
  folder = join(dirs.home, "shadow", "tern-index");
  mkdirSync(folder, { recursive: true });
});
afterEach(() => dirs.cleanup());

/** A session's index, its big-file list, its git folder with a shared part, and its ref, written `ageS` seconds ago. */
function index(id: string, ageS: number): void {
  const file = join(folder, id);
  const ref = join(dirs.home, "shadow", "refs", "tern", id);
  mkdirSync(join(ref, ".."), { recursive: true });
  writeFileSync(ref, "0123456789abcdef0123456789abcdef01234567\n");
  writeFileSync(file, "DIRC");
  writeFileSync(`${file}.big`, "");
  mkdirSync(`${file}.git`);
  writeFileSync(join(`${file}.git`, "sharedindex.0123"), "x".repeat(1000));
  writeFileSync(join(`${file}.git`, "HEAD"), "ref: refs/tern/x\n");
  const t = Date.now() / 1000 - ageS;
  utimesSync(ref, t, t);
  // The index's own time says nothing of the snapshot's (every git status rewrites it): newest first here.
  utimesSync(file, Date.now() / 1000 + ageS, Date.now() / 1000 + ageS);
}

const left = (id: string) =>
  [id, `${id}.big`, `${id}.git`].filter((name) => existsSync(join(folder, name))).length;

describe("pruneSessionIndexes", () => {
  it("keeps the newest, its own and live sessions' indexes, and removes every part of the rest", () => {
    const ids = ["s1", "s2", "s3", "s4", "s5", "s6", "s7"];
    // s1 is the newest, s7 the oldest.
    for (const [i, id] of ids.entries()) index(id, (i + 1) * 3600);
    const removed = pruneSessionIndexes({
      gitDir: join(dirs.home, "shadow"),
      sessionId: "s7",
      isLive: (id) => id === "s5",
    });
    expect(KEEP_NEWEST_INDEXES).toBe(3);
    expect(removed.sort()).toEqual(["s4", "s6"]);
    for (const id of ["s1", "s2", "s3", "s5", "s7"]) expect(left(id), id).toBe(3);
    for (const id of removed) expect(left(id), id).toBe(0);
  });

  it("leaves the files that are not session indexes alone", () => {
    for (let i = 0; i < 5; i++) index(`old${i}`, 7200 + i);
    writeFileSync(join(folder, "somebody.lock"), "");
    pruneSessionIndexes({ gitDir: join(dirs.home, "shadow"), sessionId: "me", isLive: () => false });
    expect(existsSync(join(folder, "somebody.lock"))).toBe(true);
  });
});

describe("sessionHeld", () => {
  it("is true while a lock names a live tern, false once released or when there is none", () => {
    const dir = join(dirs.home, "session");
    mkdirSync(dir);
    expect(sessionHeld(dir)).toBe(false);
    const lock = lockSession(dir, "session");
    expect(sessionHeld(dir)).toBe(true);
    lock.release();
    expect(sessionHeld(dir)).toBe(false);
    // A dead process's lock holds nothing.
    writeFileSync(join(dir, "lock"), "999999999\n");
    expect(sessionHeld(dir)).toBe(false);
  });
});
