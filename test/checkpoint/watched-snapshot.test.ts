// R-BIG-1 (amended), R-CKPT-1: a later snapshot of a big workspace whose change watch vouches
// for the few paths written, made or removed runs no `git status`: it writes the blobs, the trees
// on those paths and the commit itself, and the session index catches up in the background.
// Exactness is the point: after each change the snapshot must be the tree a full snapshot of the
// same files makes (ignore rules, folder marks, big-file placeholders included), the session
// index must hold exactly that tree once caught up, and the cases it leaves to git (a new folder,
// a folder's last file removed, a big file, many paths) must really go that way.
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let repo: ShadowRepo;
const ws = (p: string) => join(dirs.workspace, p);
let freshSeq = 0;

beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(async () => {
  await repo?.close();
  dirs.cleanup();
});

/** The tree a full snapshot of the workspace makes now (a shadow of its own, no watch). */
async function fullSnapshot(): Promise<string> {
  const fresh = new ShadowRepo({
    gitDir: join(dirs.home, `fresh${++freshSeq}`),
    workTree: dirs.workspace,
    sessionId: "fresh",
  });
  return fresh.snapshot(undefined, "fresh");
}

/** How many snapshots ran without git so far. */
const withoutGit = () => (repo as unknown as { watchedWay: { taken: number } }).watchedWay.taken;

/** Over the 300 entries a workspace is read in-process for (quiet-workspace.ts). */
function bigWorkspace(): void {
  for (let d = 0; d < 8; d++)
    for (let s = 0; s < 3; s++) {
      mkdirSync(ws(`pkg${d}/sub${s}`), { recursive: true });
      for (let f = 0; f < 20; f++) writeFileSync(ws(`pkg${d}/sub${s}/f${f}.ts`), `export const v = ${f};\n`);
    }
  mkdirSync(ws("pkg0/lonely"));
  writeFileSync(ws("pkg0/lonely/only.ts"), "alone\n");
  writeFileSync(ws(".gitignore"), "*.log\nbuild/\n");
}

/** A repo whose watch is up: snapshots until one runs without git. */
async function watchedRepo(from?: string): Promise<string> {
  repo = new ShadowRepo({
    gitDir: join(dirs.home, "shadow"),
    workTree: dirs.workspace,
    sessionId: "s1",
    watchChanges: true,
  });
  let tree = await repo.snapshot(from, "first");
  for (let i = 0; i < 100 && withoutGit() === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(ws("pkg0/sub0/f5.ts"), `settling ${i}\n`);
    tree = await repo.snapshot(tree, "settle");
  }
  expect(withoutGit()).toBe(1);
  return tree;
}

describe("a later snapshot of a few known paths runs no git", () => {
  it("holds exactly the full snapshot's tree, and the caught-up index holds it too", async () => {
    bigWorkspace();
    let tree = await watchedRepo();
    expect(tree).toBe(await fullSnapshot());
    const cases: [string, boolean, () => void][] = [
      ["an edit", true, () => writeFileSync(ws("pkg1/sub1/f3.ts"), "changed\n")],
      [
        "a new file and an ignored one",
        true,
        () => {
          writeFileSync(ws("pkg2/sub0/new.ts"), "new\n");
          writeFileSync(ws("pkg2/sub0/debug.log"), "log\n");
        },
      ],
      ["a removed file", true, () => rmSync(ws("pkg3/sub1/f4.ts"))],
      ["a file made executable", true, () => chmodSync(ws("pkg3/sub2/f1.ts"), 0o755)],
      ["a new link", true, () => symlinkSync("f1.ts", ws("pkg4/sub0/link.ts"))],
      [
        "a shell's write and removal",
        true,
        () =>
          execFileSync("sh", ["-c", "echo x >> pkg5/sub0/f1.ts; rm pkg5/sub0/f2.ts"], {
            cwd: dirs.workspace,
          }),
      ],
      ["a new folder (the git way)", false, () => mkdirSync(ws("pkg6/empty"))],
      ["a file into the folder held as empty", true, () => writeFileSync(ws("pkg6/empty/x.ts"), "x\n")],
      ["a folder's last file removed (the git way)", false, () => rmSync(ws("pkg0/lonely/only.ts"))],
      ["a file over 10 MB (the git way)", false, () => truncateSync(ws("pkg7/sub0/f0.ts"), 11 * 1024 * 1024)],
      [
        "an ignored folder with a file (the git way)",
        false,
        () => {
          mkdirSync(ws("pkg7/build"));
          writeFileSync(ws("pkg7/build/out.js"), "out\n");
        },
      ],
      ["a write into the ignored folder", true, () => writeFileSync(ws("pkg7/build/out.js"), "out again\n")],
      [
        "many paths (the git way)",
        false,
        () => {
          for (let d = 0; d < 8; d++)
            for (let s = 0; s < 2; s++)
              for (let f = 0; f < 20; f++) writeFileSync(ws(`pkg${d}/sub${s}/f${f}.ts`), `many ${f}\n`);
        },
      ],
      ["an edit after the git way", true, () => writeFileSync(ws("pkg1/sub2/f2.ts"), "after\n")],
    ];
    for (const [what, cheap, change] of cases) {
      const before = withoutGit();
      change();
      const next = await repo.snapshot(tree, what);
      expect(withoutGit() - before, what).toBe(cheap ? 1 : 0);
      expect(next, what).toBe(await fullSnapshot());
      // Waits for the catch-up (every command does): the index then holds exactly this tree
      // (compared without writing the index, which a snapshot would take for someone else's change).
      expect((await repo.git(["diff-index", "--cached", "--name-status", next])).stdout, what).toBe("");
      tree = next;
    }
    // Nothing changed: the same tree, still no git.
    expect(await repo.snapshot(tree, "idle")).toBe(tree);
  });

  it("keeps each snapshot reachable from the session's ref, in order", async () => {
    bigWorkspace();
    let tree = await watchedRepo();
    const trees: string[] = [];
    for (let i = 0; i < 3; i++) {
      writeFileSync(ws(`pkg2/sub1/f${i}.ts`), `round ${i}\n`);
      tree = await repo.snapshot(tree, `round ${i}`);
      trees.push(tree);
    }
    await repo.close();
    const log = (await repo.git(["log", "--format=%T %s", "-3", "refs/tern/s1"])).stdout.trim().split("\n");
    expect(log).toEqual(trees.map((t, i) => `${t} round ${i}`).reverse());
    expect((await repo.git(["fsck", "--no-dangling", "--connectivity-only"])).stderr).not.toMatch(
      /error|missing/,
    );
  });

  it("reads the trees git holds packed (no loose copy) through git cat-file", async () => {
    bigWorkspace();
    const first = await watchedRepo();
    await repo.close();
    // Every object into one pack, the loose ones gone: the next process reads no tree loose.
    await repo.git(["repack", "-a", "-d", "-q"]);
    await repo.git(["prune-packed"]);
    const loose = (id: string) =>
      existsSync(join(dirs.home, "shadow", "objects", id.slice(0, 2), id.slice(2)));
    expect(loose(first)).toBe(false);
    let tree = await watchedRepo(first);
    writeFileSync(ws("pkg3/sub2/f7.ts"), "read through packs\n");
    tree = await repo.snapshot(tree, "after repack");
    expect(withoutGit()).toBe(2);
    expect(tree).toBe(await fullSnapshot());
  });
});
