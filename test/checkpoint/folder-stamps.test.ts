// The empty-folder walk is skipped while the snapshot's folders keep their mtimes, and a folder's
// mtime is trusted only once it is older than its file system's timestamp tick (vocab/racy-stamps):
// 100 ms where times have a sub-second part, 2 s where they are whole seconds (FAT, ext3, HFS+;
// utimesSync sets such times here). A folder a bash command touched a second ago is trusted on a
// fine file system, so each snapshot of a busy session does not walk again.
import { mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let repo: ShadowRepo;
const ws = (p: string) => join(dirs.workspace, p);

beforeEach(() => {
  dirs = makeTempDirs();
  repo = new ShadowRepo({ gitDir: join(dirs.home, "shadow"), workTree: dirs.workspace, sessionId: "s1" });
});
afterEach(() => dirs.cleanup());

/** Sets every folder's times to `at` (ms since the epoch), as if nothing changed since. */
function age(dir: string, at: number): void {
  utimesSync(dir, at / 1000, at / 1000);
  for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) age(join(dir, e.name), at);
}

const marks = async (from: string, to: string) => (await repo.treeChanges(from, to)).map((c) => c.path);

describe("folder stamps", () => {
  it("trusts folders changed a second ago when their times have a sub-second part; whole-second ones walk again", async () => {
    mkdirSync(ws("src"));
    writeFileSync(ws("src/a.ts"), "a\n");
    const wholeSecond = Math.floor(Date.now() / 1000) * 1000;
    // 0.75-1.75 s old, with a sub-second part: past the 100 ms window.
    const fine = wholeSecond - 750;
    age(dirs.workspace, fine);
    const t1 = await repo.snapshot(undefined, "first");
    // A folder made, its parent's time then put back: invisible to trusted stamps (proof of no walk).
    mkdirSync(ws("src/hidden"));
    age(dirs.workspace, fine);
    expect(await repo.snapshot(t1, "fine")).toBe(t1);
    // Whole-second times under 1 s old (a coarse file system's) are inside the 2 s window: the
    // same invisible change is found, as every later one while the times stay that recent.
    age(dirs.workspace, wholeSecond);
    const t2 = await repo.snapshot(t1, "coarse");
    expect(await marks(t1, t2)).toEqual(["src/hidden/.tern-empty-folder"]);
    mkdirSync(ws("src/more"));
    age(dirs.workspace, wholeSecond);
    const t3 = await repo.snapshot(t2, "coarse again");
    expect(await marks(t2, t3)).toEqual(["src/more/.tern-empty-folder"]);
  });

  it("does not trust a sub-second time ahead of the reading", async () => {
    mkdirSync(ws("src"));
    writeFileSync(ws("src/a.ts"), "a\n");
    const t1 = await repo.snapshot(undefined, "first");
    // Times ahead of the clock are never trusted, like a sub-second time under 100 ms old.
    const soon = Date.now() + 5_000.5;
    age(dirs.workspace, soon);
    const t2 = await repo.snapshot(t1, "moved");
    mkdirSync(ws("src/hidden"));
    age(dirs.workspace, soon);
    const t3 = await repo.snapshot(t2, "racy");
    expect(await marks(t2, t3)).toEqual(["src/hidden/.tern-empty-folder"]);
  });
});
