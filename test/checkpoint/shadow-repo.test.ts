// The shadow repository on its own: snapshots reuse the index, restores touch only what differs,
// and a git killed mid-snapshot (what a kill -9 of tern leaves) does not break the next one.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { restoreTree } from "../../src/checkpoint/restore.js";
import { EMPTY_TREE, ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let repo: ShadowRepo;
const ws = (p: string) => join(dirs.workspace, p);

beforeEach(() => {
  dirs = makeTempDirs();
  repo = new ShadowRepo({ gitDir: join(dirs.home, "shadow"), workTree: dirs.workspace, sessionId: "s1" });
});
afterEach(() => dirs.cleanup());

describe("ShadowRepo", () => {
  it("snapshots an empty folder as the empty tree and returns the same tree while nothing changes", async () => {
    expect(await repo.snapshot(undefined, "a")).toBe(EMPTY_TREE);
    writeFileSync(ws("a.txt"), "a\n");
    const t1 = await repo.snapshot(EMPTY_TREE, "b");
    expect(t1).not.toBe(EMPTY_TREE);
    expect(await repo.snapshot(t1, "c")).toBe(t1);
    // A new process (new ShadowRepo) with the same session index finds the same tree.
    const again = new ShadowRepo({
      gitDir: join(dirs.home, "shadow"),
      workTree: dirs.workspace,
      sessionId: "s1",
    });
    expect(await again.snapshot(t1, "d")).toBe(t1);
  });

  it("two sessions of one workspace keep separate indexes", async () => {
    writeFileSync(ws("a.txt"), "a\n");
    const other = new ShadowRepo({
      gitDir: join(dirs.home, "shadow"),
      workTree: dirs.workspace,
      sessionId: "s2",
    });
    const t1 = await repo.snapshot(undefined, "a");
    writeFileSync(ws("b.txt"), "b\n");
    const t2 = await other.snapshot(undefined, "b");
    expect(t2).not.toBe(t1);
    expect((await repo.treeChanges(t1, t2)).map((c) => c.path)).toEqual(["b.txt"]);
  });

  it("a new session starts from the newest other session's index: only what changed since is listed", async () => {
    mkdirSync(ws("d"));
    for (let i = 0; i < 5; i++) writeFileSync(ws(`d/f${i}.txt`), `${i}\n`);
    const t1 = await repo.snapshot(undefined, "s1 first");
    writeFileSync(ws("d/f2.txt"), "changed\n");
    const other = new ShadowRepo({
      gitDir: join(dirs.home, "shadow"),
      workTree: dirs.workspace,
      sessionId: "s2",
    });
    await other.init();
    expect(other.seeded).toBe(true);
    // An empty index would list every file as untracked.
    expect(await other.changedPaths()).toEqual(["d/f2.txt"]);
    const t2 = await other.snapshot(undefined, "s2 first");
    expect((await other.treeChanges(t1, t2)).map((c) => c.path)).toEqual(["d/f2.txt"]);
    // Its first commit's parent is the seed's (the ref made at init, named without a rev-parse).
    const commitOf = async (ref: string) => (await other.git(["rev-parse", ref])).stdout.trim();
    expect(await commitOf("refs/tern/s2^")).toBe(await commitOf("refs/tern/s1"));
    // The first session's index is its own still.
    expect(await repo.changedPaths()).toEqual(["d/f2.txt"]);
    // A third session starts from the newest (s2's, which holds the change).
    const third = new ShadowRepo({
      gitDir: join(dirs.home, "shadow"),
      workTree: dirs.workspace,
      sessionId: "s3",
    });
    await third.init();
    expect(await third.changedPaths()).toEqual([]);
  });

  it("restores nested folders, symlinks and deletions, and leaves ignored files alone", async () => {
    writeFileSync(ws(".gitignore"), "*.log\n");
    mkdirSync(ws("d/e"), { recursive: true });
    writeFileSync(ws("d/e/f.txt"), "f\n");
    writeFileSync(ws("keep.log"), "log 1\n");
    const before = await repo.snapshot(undefined, "before");
    writeFileSync(ws("d/e/f.txt"), "changed\n");
    writeFileSync(ws("keep.log"), "log 2\n");
    mkdirSync(ws("n/m"), { recursive: true });
    writeFileSync(ws("n/m/new.txt"), "new\n");
    const now = await repo.snapshot(before, "now");
    const report = await restoreTree(repo, now, before);
    expect(readFileSync(ws("d/e/f.txt"), "utf8")).toBe("f\n");
    expect(existsSync(ws("n"))).toBe(false);
    expect(readFileSync(ws("keep.log"), "utf8")).toBe("log 2\n");
    expect(report).toEqual(
      expect.arrayContaining([
        { action: "changed", path: "d/e/f.txt" },
        { action: "deleted", path: "n/m/new.txt" },
        { action: "deleted folder", path: "n/m/" },
        { action: "deleted folder", path: "n/" },
      ]),
    );
    // And back: the folders come back and are reported.
    const report2 = await restoreTree(repo, before, now);
    expect(readFileSync(ws("n/m/new.txt"), "utf8")).toBe("new\n");
    expect(report2).toEqual(
      expect.arrayContaining([
        { action: "created", path: "n/m/new.txt" },
        { action: "created folder", path: "n/" },
        { action: "created folder", path: "n/m/" },
      ]),
    );
  });

  it("a git killed in the middle of a snapshot leaves a repository the next snapshot can use", async () => {
    for (let d = 0; d < 20; d++) {
      mkdirSync(ws(`dir${d}`));
      for (let f = 0; f < 100; f++) writeFileSync(ws(`dir${d}/f${f}.txt`), `${d}-${f}\n`.repeat(50));
    }
    await repo.init();
    // The same git a snapshot runs, killed with SIGKILL while it stages (as a kill -9 of tern's
    // process group would): it may leave the index lock and half-written objects behind.
    const env = {
      ...process.env,
      GIT_DIR: repo.gitDir,
      GIT_WORK_TREE: repo.workTree,
      GIT_INDEX_FILE: join(repo.gitDir, "tern-index", "s1"),
    };
    const child = spawn("git", ["add", "--all", "."], { cwd: dirs.workspace, env, stdio: "ignore" });
    await new Promise((r) => setTimeout(r, 15));
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    // Whatever moment it died at, a lock file may be there: the worst case, made certain.
    writeFileSync(join(repo.gitDir, "tern-index", "s1.lock"), "");

    const fresh = new ShadowRepo({
      gitDir: join(dirs.home, "shadow"),
      workTree: dirs.workspace,
      sessionId: "s1",
    });
    const tree = await fresh.snapshot(undefined, "after kill");
    writeFileSync(ws("dir0/f0.txt"), "edited\n");
    const next = await fresh.snapshot(tree, "edit");
    await restoreTree(fresh, next, tree);
    expect(readFileSync(ws("dir0/f0.txt"), "utf8")).toBe("0-0\n".repeat(50));
    expect((await fresh.git(["fsck", "--no-progress", "--connectivity-only"])).stderr).not.toMatch(/error/i);
  });

  it("with folders unchanged since the last snapshot, edits are kept without the empty-folder walk; a new or emptied folder still is", async () => {
    mkdirSync(ws("src/deep"), { recursive: true });
    mkdirSync(ws("gone"), { recursive: true });
    writeFileSync(ws("src/a.ts"), "a\n");
    writeFileSync(ws("src/deep/b.ts"), "b\n");
    writeFileSync(ws("gone/c.ts"), "c\n");
    // Folder mtimes a minute old: the snapshot trusts them (a fresh one might still move unseen).
    const old = new Date(Date.now() - 60_000);
    const age = (dir: string) => {
      utimesSync(dir, old, old);
      for (const e of readdirSync(dir, { withFileTypes: true }))
        if (e.isDirectory() && e.name !== ".git") age(join(dir, e.name));
    };
    age(dirs.workspace);
    const t1 = await repo.snapshot(undefined, "first");
    // An edit in place moves no folder's mtime: the snapshot skips the walk and still holds it.
    writeFileSync(ws("src/deep/b.ts"), "b edited\n");
    const t2 = await repo.snapshot(t1, "edit");
    expect(await repo.treeChanges(t1, t2)).toEqual([
      expect.objectContaining({ status: "M", path: "src/deep/b.ts" }),
    ]);
    // A folder made empty-handed moves its parent's mtime: the walk runs and marks it.
    age(dirs.workspace);
    await repo.snapshot(t2, "aged");
    mkdirSync(ws("src/empty"));
    const t3 = await repo.snapshot(t2, "mkdir");
    expect((await repo.treeChanges(t2, t3)).map((c) => c.path)).toEqual(["src/empty/.tern-empty-folder"]);
    // A folder whose only file went is held empty; an untracked folder's files are all listed.
    age(dirs.workspace);
    await repo.snapshot(t3, "aged");
    rmSync(ws("gone/c.ts"));
    mkdirSync(ws("new/inner/none"), { recursive: true });
    writeFileSync(ws("new/inner/d.ts"), "d\n");
    const t4 = await repo.snapshot(t3, "moves");
    expect((await repo.treeChanges(t3, t4)).map((c) => `${c.status} ${c.path}`).sort()).toEqual([
      "A gone/.tern-empty-folder",
      "A new/inner/d.ts",
      "A new/inner/none/.tern-empty-folder",
      "D gone/c.ts",
    ]);
    const back = await restoreTree(repo, t4, t1);
    expect(back).toEqual(expect.arrayContaining([{ action: "deleted folder", path: "src/empty/" }]));
    expect(existsSync(ws("new"))).toBe(false);
    expect(readFileSync(ws("gone/c.ts"), "utf8")).toBe("c\n");
  });
});

// Folder stamps: a folder's mtime is trusted only once it is older than its file system's
// timestamp tick (vocab/racy-stamps): 100 ms where times have a sub-second part, 2 s where they
// are whole seconds (FAT, ext3, HFS+; utimesSync sets such times here). A folder a bash command
// touched a second ago is trusted on a fine file system, so each snapshot of a busy session does
// not walk again.
/** Sets every folder's times to `at` (ms since the epoch), as if nothing changed since. */
function ageAt(dir: string, at: number): void {
  utimesSync(dir, at / 1000, at / 1000);
  for (const e of readdirSync(dir, { withFileTypes: true }))
    if (e.isDirectory()) ageAt(join(dir, e.name), at);
}

const marks = async (from: string, to: string) => (await repo.treeChanges(from, to)).map((c) => c.path);

describe("folder stamps", () => {
  it("trusts folders changed a second ago when their times have a sub-second part; whole-second ones walk again", async () => {
    mkdirSync(ws("src"));
    writeFileSync(ws("src/a.ts"), "a\n");
    const wholeSecond = Math.floor(Date.now() / 1000) * 1000;
    // 0.75-1.75 s old, with a sub-second part: past the 100 ms window.
    const fine = wholeSecond - 750;
    ageAt(dirs.workspace, fine);
    const t1 = await repo.snapshot(undefined, "first");
    // A folder made, its parent's time then put back: invisible to trusted stamps (proof of no walk).
    mkdirSync(ws("src/hidden"));
    ageAt(dirs.workspace, fine);
    expect(await repo.snapshot(t1, "fine")).toBe(t1);
    // Whole-second times under 1 s old (a coarse file system's) are inside the 2 s window: the
    // same invisible change is found, as every later one while the times stay that recent.
    ageAt(dirs.workspace, wholeSecond);
    const t2 = await repo.snapshot(t1, "coarse");
    expect(await marks(t1, t2)).toEqual(["src/hidden/.tern-empty-folder"]);
    mkdirSync(ws("src/more"));
    ageAt(dirs.workspace, wholeSecond);
    const t3 = await repo.snapshot(t2, "coarse again");
    expect(await marks(t2, t3)).toEqual(["src/more/.tern-empty-folder"]);
  });

  it("does not trust a sub-second time ahead of the reading", async () => {
    mkdirSync(ws("src"));
    writeFileSync(ws("src/a.ts"), "a\n");
    const t1 = await repo.snapshot(undefined, "first");
    // Times ahead of the clock are never trusted, like a sub-second time under 100 ms old.
    const soon = Date.now() + 5_000.5;
    ageAt(dirs.workspace, soon);
    const t2 = await repo.snapshot(t1, "moved");
    mkdirSync(ws("src/hidden"));
    ageAt(dirs.workspace, soon);
    const t3 = await repo.snapshot(t2, "racy");
    expect(await marks(t2, t3)).toEqual(["src/hidden/.tern-empty-folder"]);
  });
});
