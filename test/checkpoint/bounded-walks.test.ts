// The checkpoint's own walks (empty folders, nested repositories) on small generated trees:
// node_modules and .git are never entered, ignored folders get no mark, and counting stops at
// its cap (every place that walks the workspace is bounded like grep and glob).
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { countFilesIn } from "../../src/checkpoint/nested-repos.js";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let repo: ShadowRepo;
const ws = (p: string) => join(dirs.workspace, p);
const files = (dir: string, n: number) => {
  mkdirSync(ws(dir), { recursive: true });
  for (let i = 0; i < n; i++) writeFileSync(ws(`${dir}/f${i}.txt`), `${i}\n`);
};

beforeEach(() => {
  dirs = makeTempDirs();
  repo = new ShadowRepo({ gitDir: join(dirs.home, "shadow"), workTree: dirs.workspace, sessionId: "s1" });
});
afterEach(() => dirs.cleanup());

describe("bounded workspace walks of checkpoints", () => {
  it("marks empty folders of an untracked folder, but none that are ignored or inside node_modules", async () => {
    writeFileSync(ws(".gitignore"), "out/\n");
    files("pkg/src", 1);
    writeFileSync(ws("pkg/.gitignore"), ".cache/\n");
    // `fresh/` holds no file: git names it as one untracked folder, and the walk below it must
    // still leave out the ignored `fresh/out/` (git check-ignore decides, nested rules included).
    for (const d of [
      "pkg/empty",
      "pkg/out",
      "pkg/.cache",
      "pkg/node_modules/dep/empty",
      "fresh/keep",
      "fresh/out",
    ])
      mkdirSync(ws(d), { recursive: true });
    const tree = await repo.snapshot(undefined, "first");
    const names = (await repo.git(["ls-tree", "-r", "--name-only", tree])).stdout.trim().split("\n");
    expect(names).toContain("pkg/empty/.tern-empty-folder");
    expect(names).toContain("fresh/keep/.tern-empty-folder");
    expect(names).toContain("pkg/src/f0.txt");
    expect(names.filter((n) => /out\/|\.cache\/|node_modules/.test(n))).toEqual([]);
  });

  it("counts a nested repository's files without entering its .git or node_modules, and stops at the cap", async () => {
    files("vendor/lib/src", 7);
    execFileSync("git", ["init", "--quiet", ws("vendor/lib")]);
    files("vendor/lib/node_modules/dep", 40);
    files("top", 3);
    // 3 top files + 7 nested; the nested .git's own files and node_modules are not counted.
    await repo.init();
    expect(await repo.countFiles()).toBe(10);
    for (let i = 0; i < 20; i++) files(`wide/d${String(i).padStart(2, "0")}`, 2);
    // Counting ends once the cap is passed: folders are read 16 at a time, so the first 16 (32
    // files) are counted and the last 4 never read.
    expect(await countFilesIn(dirs.workspace, "wide/", 5)).toBe(32);
    expect(await countFilesIn(dirs.workspace, "wide/", 100)).toBe(40);
  });
});
