// A first snapshot of many files: their objects are written into packs by fast-import on every
// core before update-index stages them (object-preload.ts). The tree must be the one git itself
// makes of the same files (links, .gitattributes conversions, a FIFO left out as git leaves it),
// and no blob may be left as a loose object (100,000 of them was the old cost).
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PRELOAD_MIN_FILES } from "../../src/checkpoint/object-preload.js";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
const ws = (p: string) => join(dirs.workspace, p);

beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

/** The tree git makes of the workspace in a plain repository of its own (`git add -A`). */
function gitsOwnTree(): string {
  const env = {
    PATH: process.env.PATH,
    GIT_DIR: join(dirs.home, "plain.git"),
    GIT_WORK_TREE: dirs.workspace,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
  const git = (args: string[]) =>
    execFileSync("git", ["-c", "core.autocrlf=false", ...args], {
      cwd: dirs.workspace,
      env,
      encoding: "utf8",
    });
  git(["init", "-q"]);
  git(["add", "-A", "."]);
  return git(["write-tree"]).trim();
}

/** Loose objects in a repository's object store (folders `xx/` of objects/). */
function looseObjects(gitDir: string): number {
  const objects = join(gitDir, "objects");
  return readdirSync(objects)
    .filter((name) => /^[0-9a-f]{2}$/.test(name))
    .reduce((n, name) => n + readdirSync(join(objects, name)).length, 0);
}

describe("first snapshot of many files", () => {
  it("holds the tree git makes of the same files, with the blobs packed, not loose", async () => {
    const files = PRELOAD_MIN_FILES + 200;
    for (let d = 0; d < 20; d++) {
      mkdirSync(ws(`pkg${d}/src`), { recursive: true });
      for (let f = 0; f < files / 20; f++)
        writeFileSync(ws(`pkg${d}/src/f${f}.ts`), `export const v = ${d * 1000 + f};\n`.repeat(f % 7));
    }
    // Converted by git on the way in (eol=lf): the blob is not the bytes on disk.
    writeFileSync(ws(".gitattributes"), "*.txt text eol=lf\n");
    writeFileSync(ws("crlf.txt"), "one\r\ntwo\r\n");
    symlinkSync("pkg0/src/f1.ts", ws("link.ts"));
    // A FIFO is never read (reading it would wait forever); git leaves it out too.
    execFileSync("mkfifo", [ws("pipe")]);
    const gitDir = join(dirs.home, "shadow");
    const repo = new ShadowRepo({ gitDir, workTree: dirs.workspace, sessionId: "s1" });
    const tree = await repo.snapshot(undefined, "first");
    expect(tree).toBe(gitsOwnTree());
    // Loose: the 41 trees, the commit, a few small blobs (the converted one, the link's, tern's
    // fixed ones); never one per file (1,200).
    expect(looseObjects(gitDir)).toBeLessThan(60);
    // The next snapshot sees one edit, and only it.
    writeFileSync(ws("pkg3/src/f4.ts"), "changed\n");
    const next = await repo.snapshot(tree, "second");
    expect((await repo.treeChanges(tree, next)).map((c) => c.path)).toEqual(["pkg3/src/f4.ts"]);
  });
});
