// The rescan before each sandboxed command (R-SBX-2): nested `.git`/`.tern` found at any depth,
// a folder whose modification time is unchanged not read again, and one changed within the same
// clock tick as its last reading read again (the "racy" case), so no new repository slips by.
import { mkdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sandboxBounds } from "../../src/sandbox/policy.js";
import { ProtectedScan } from "../../src/sandbox/protected-scan.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const paths = (scan: ProtectedScan) =>
  scan
    .find()
    .map((e) => e.path.slice(dirs.workspace.length + 1))
    .sort();

/** Sets a folder's times to `at` (ms since the epoch), as if nothing changed since. */
function age(path: string, at: number): void {
  utimesSync(path, at / 1000, at / 1000);
}

describe("ProtectedScan", () => {
  it("finds .git and .tern at any depth, files too (a worktree's .git file), not through symlinks", () => {
    mkdirSync(join(dirs.workspace, "a/b/c/d/e/f/g/.git"), { recursive: true });
    mkdirSync(join(dirs.workspace, "node_modules/p/.tern"), { recursive: true });
    mkdirSync(join(dirs.workspace, "wt"));
    writeFileSync(join(dirs.workspace, "wt/.git"), "gitdir: ../.git/worktrees/wt\n");
    mkdirSync(join(dirs.root, "elsewhere/.git"), { recursive: true });
    symlinkSync(join(dirs.root, "elsewhere"), join(dirs.workspace, "link"));
    const scan = new ProtectedScan(dirs.workspace);
    expect(paths(scan)).toEqual(["a/b/c/d/e/f/g/.git", "node_modules/p/.tern", "wt/.git"]);
  });

  it("a folder unchanged since a reading long after its last change is not read again", () => {
    const old = Date.now() - 60_000;
    const folder = join(dirs.workspace, "quiet");
    mkdirSync(folder);
    age(folder, old);
    const scan = new ProtectedScan(dirs.workspace);
    expect(paths(scan)).toEqual([]);
    // A change that leaves the time as it was is invisible to the cache: proof it was not read.
    mkdirSync(join(folder, ".git"));
    age(folder, old);
    expect(paths(scan)).toEqual([]);
    // Any real change moves the time, and the folder is read again.
    mkdirSync(join(folder, "more"));
    expect(paths(scan)).toEqual(["quiet/.git"]);
  });

  it("a folder read within the clock tick of its last change is read again next time", () => {
    const folder = join(dirs.workspace, "busy");
    mkdirSync(folder);
    const mtime = statSync(folder).mtimeMs;
    const scan = new ProtectedScan(dirs.workspace);
    expect(paths(scan)).toEqual([]);
    mkdirSync(join(folder, ".git"));
    // Same time stamp as at the first reading (a change within one tick of a coarse clock).
    age(folder, mtime);
    expect(paths(scan)).toEqual(["busy/.git"]);
  });

  it("trusts a folder changed a second ago where times have a sub-second part, not where they are whole seconds", () => {
    const wholeSecond = Math.floor(Date.now() / 1000) * 1000;
    // Fine: 0.75-1.75 s old, past the 100 ms window; a change leaving that time is not seen (not read again).
    const fine = join(dirs.workspace, "fine");
    mkdirSync(fine);
    age(fine, wholeSecond - 750);
    // Coarse: a whole second under 1 s old (a FAT or ext3 stamp) is inside the 2 s window.
    const coarse = join(dirs.workspace, "coarse");
    mkdirSync(coarse);
    age(coarse, wholeSecond);
    const scan = new ProtectedScan(dirs.workspace);
    expect(paths(scan)).toEqual([]);
    mkdirSync(join(fine, ".git"));
    age(fine, wholeSecond - 750);
    mkdirSync(join(coarse, ".git"));
    age(coarse, wholeSecond);
    expect(paths(scan)).toEqual(["coarse/.git"]);
  });
});

describe("the bound on folders searched", () => {
  it("says once, in one line, that folders past the bound were not searched; not when all were", () => {
    for (let i = 0; i < 6; i++) mkdirSync(join(dirs.workspace, `p${i}/src`), { recursive: true });
    const notices: string[] = [];
    const all = new ProtectedScan(dirs.workspace, { maxFolders: 13, onCapped: (text) => notices.push(text) });
    all.find();
    expect(notices).toEqual([]);
    mkdirSync(join(dirs.workspace, "p6"));
    all.find();
    all.find();
    expect(notices).toEqual([
      "sandbox: the workspace has more than 13 folders; only the first 13 (dependency and build folders last) were searched for .git and .tern to keep read-only",
    ]);
  });

  it("reaches the sandbox's owner through sandboxBounds, the policy still made", () => {
    for (let i = 0; i < 5; i++) mkdirSync(join(dirs.workspace, `p${i}`));
    const notices: string[] = [];
    const bounds = sandboxBounds(
      { mode: "workspace-write", network: false, writableRoots: [] },
      dirs.workspace,
      undefined,
      {
        maxFolders: 3,
        onCapped: (text) => notices.push(text),
      },
    );
    expect(bounds?.current().mode).toBe("workspace-write");
    bounds?.current();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^sandbox: the workspace has more than 3 folders/);
  });
});
