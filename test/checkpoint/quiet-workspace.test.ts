// A snapshot of a small workspace that provably did not change since the last settled snapshot
// runs no git (quiet-workspace.ts). Proof that no git ran: PATH names no git while it is taken
// (a git spawned then fails the snapshot). Any change git status would see still runs git.
import { mkdirSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_ENTRIES } from "../../src/checkpoint/quiet-workspace.js";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { FINE_RACY_MS } from "../../src/vocab/racy-stamps.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let repo: ShadowRepo;
const ws = (p: string) => join(dirs.workspace, p);
const realPath = process.env.PATH;

beforeEach(() => {
  dirs = makeTempDirs();
  repo = new ShadowRepo({ gitDir: join(dirs.home, "shadow"), workTree: dirs.workspace, sessionId: "s1" });
});
afterEach(() => {
  process.env.PATH = realPath;
  dirs.cleanup();
});

/**
 * Times of every entry a minute back; setting them moves each ctime to now, so the caller waits
 * out the sub-second window (`settle`) before a reading is trusted. Each call goes 10 s further
 * back: git's own untracked cache compares a folder's times in whole seconds, so a folder's
 * mtime put back into the same second as at the last status would hide a new file from git.
 */
let ages = 0;
function age(dir: string, old = new Date(Date.now() - 60_000 - 10_000 * ++ages)): void {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) age(join(dir, e.name), old);
    utimesSync(join(dir, e.name), old, old);
  }
  utimesSync(dir, old, old);
}

/** A snapshot taken with no git on PATH: it resolves only if it ran none. */
async function withoutGit(previous: string): Promise<string> {
  process.env.PATH = join(dirs.root, "no-such-folder");
  try {
    return await repo.snapshot(previous, "without git");
  } finally {
    process.env.PATH = realPath;
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, FINE_RACY_MS + 20));

/**
 * Files aged, then the snapshots that settle a baseline (the first, and one that finds nothing);
 * checked: the next one runs no git.
 */
async function settled(quiet = true): Promise<string> {
  age(dirs.workspace);
  await settle();
  const first = await repo.snapshot(undefined, "first");
  expect(await repo.snapshot(first, "settles")).toBe(first);
  if (quiet) expect(await withoutGit(first)).toBe(first);
  return first;
}

describe("quiet workspace", () => {
  it("returns the last tree without git while nothing changed; an edit whose mtime was put back runs git", async () => {
    mkdirSync(ws("src/empty"), { recursive: true });
    writeFileSync(ws("src/a.ts"), "a\n");
    writeFileSync(ws("b.txt"), "b\n");
    const t1 = await settled();
    expect(await withoutGit(t1)).toBe(t1);
    // Same size, mtime set back: only the ctime moved. (git itself compares ctime's seconds only,
    // so within the second it may still call the file clean: its answer, asked for.)
    const { mtime } = statSync(ws("src/a.ts"));
    writeFileSync(ws("src/a.ts"), "A\n");
    utimesSync(ws("src/a.ts"), mtime, mtime);
    await expect(withoutGit(t1)).rejects.toThrow(/git/);
    // Once git ran and found (or not) the edit, what it left settles again.
    const t2 = await repo.snapshot(t1, "edit");
    await settle();
    await repo.snapshot(t2, "settles");
    expect(await withoutGit(t2)).toBe(t2);
    writeFileSync(ws("b.txt"), "b, longer\n");
    const t3 = await repo.snapshot(t2, "edit");
    expect((await repo.treeChanges(t2, t3)).map((c) => `${c.status} ${c.path}`)).toEqual(["M b.txt"]);
  });

  it("runs git for a new file, a removed one and a file in a new folder", async () => {
    mkdirSync(ws("src"));
    writeFileSync(ws("src/a.ts"), "a\n");
    for (const change of [
      () => writeFileSync(ws("src/new.ts"), "n\n"),
      () => rmSync(ws("src/a.ts")),
      () => mkdirSync(ws("src/deeper/still"), { recursive: true }),
    ]) {
      const before = await settled();
      change();
      await expect(withoutGit(before)).rejects.toThrow(/git/);
    }
  });

  it("trusts no reading of a time within its tick: a file just written keeps git running", async () => {
    writeFileSync(ws("a.txt"), "a\n");
    age(dirs.workspace);
    await settle();
    // A time ahead of the clock is as untrusted as one a few ms old (and stays so, unlike it).
    const future = new Date(Date.now() + 60_000);
    utimesSync(ws("a.txt"), future, future);
    await settle();
    const t1 = await repo.snapshot(undefined, "first");
    expect(await repo.snapshot(t1, "finds nothing")).toBe(t1);
    await expect(withoutGit(t1)).rejects.toThrow(/git/);
  });

  it("runs git when the session index was rewritten (a path forgotten), and gives the right tree", async () => {
    writeFileSync(ws("a.txt"), "a\n");
    writeFileSync(ws("b.txt"), "b\n");
    const t1 = await settled();
    await repo.forget(["b.txt"]);
    await expect(withoutGit(t1)).rejects.toThrow(/git/);
    expect(await repo.snapshot(t1, "after forget")).toBe(t1);
  });

  it("follows a workspace that is a symlink to its folder, as git does", async () => {
    writeFileSync(ws("a.txt"), "a\n");
    const link = join(dirs.root, "linked-workspace");
    symlinkSync(dirs.workspace, link);
    repo = new ShadowRepo({ gitDir: join(dirs.home, "shadow"), workTree: link, sessionId: "s3" });
    const t1 = await settled();
    writeFileSync(ws("b.txt"), "b\n");
    await expect(withoutGit(t1)).rejects.toThrow(/git/);
  });

  it("leaves a nested repository and a workspace over the bound to git", async () => {
    mkdirSync(ws("vendor/lib/.git"), { recursive: true });
    writeFileSync(ws("a.txt"), "a\n");
    const t1 = await settled(false);
    await expect(withoutGit(t1)).rejects.toThrow(/git/);
    const big = makeTempDirs();
    try {
      repo = new ShadowRepo({ gitDir: join(big.home, "shadow"), workTree: big.workspace, sessionId: "s2" });
      for (let i = 0; i < MAX_ENTRIES; i++) writeFileSync(join(big.workspace, `f${i}.txt`), `${i}\n`);
      age(big.workspace);
      await settle();
      const b1 = await repo.snapshot(undefined, "first");
      expect(await repo.snapshot(b1, "settles")).toBe(b1);
      process.env.PATH = join(big.root, "none");
      await expect(repo.snapshot(b1, "too big")).rejects.toThrow(/git/);
    } finally {
      process.env.PATH = realPath;
      big.cleanup();
    }
  });
});
