// R-BIG-1 (amended): a later snapshot of a big workspace is told what changed by the session's
// change watch (inotify through fs.watch) as git's fsmonitor answer, so git neither lstats nor
// re-reads what did not change. Exactness is the point: after each kind of change (edit, new
// file, new folder tree, removed folder, moved folder, a shell's writes just before it exits)
// the snapshot must be the tree git itself makes of the same files in a plain repository; and
// the answers must really be partial (a test passing on "everything" every time proves nothing).
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let repo: ShadowRepo;
const ws = (p: string) => join(dirs.workspace, p);

beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => {
  repo?.close();
  dirs.cleanup();
});

/** The tree git makes of the workspace in a plain repository of its own (`git add -A`). */
function gitsOwnTree(): string {
  const env = {
    PATH: process.env.PATH,
    GIT_DIR: join(dirs.home, "plain.git"),
    GIT_WORK_TREE: dirs.workspace,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
  };
  const git = (args: string[]) => execFileSync("git", args, { cwd: dirs.workspace, env, encoding: "utf8" });
  git(["init", "-q"]);
  git(["add", "-A", "."]);
  return git(["write-tree"]).trim();
}

/** What the hook answered the last snapshot: "everything", or the paths it named. */
function lastAnswer(): "everything" | string[] {
  const answer = readFileSync(join(dirs.home, "shadow", "tern-index", "s1.git", "fsmonitor-answer"), "utf8");
  const paths = answer.split("\0").slice(1, -1);
  return paths[0] === "/" ? "everything" : paths;
}

describe("later snapshots of a big workspace told what changed", () => {
  it("hold exactly the tree git makes, with partial answers once the watch is up", async () => {
    // Over the 300 entries a workspace is read in-process for (quiet-workspace.ts).
    for (let d = 0; d < 8; d++)
      for (let s = 0; s < 3; s++) {
        mkdirSync(ws(`pkg${d}/sub${s}`), { recursive: true });
        for (let f = 0; f < 20; f++)
          writeFileSync(ws(`pkg${d}/sub${s}/f${f}.ts`), `export const v = ${f};\n`);
      }
    writeFileSync(ws(".gitignore"), "*.log\n");
    repo = new ShadowRepo({
      gitDir: join(dirs.home, "shadow"),
      workTree: dirs.workspace,
      sessionId: "s1",
      watchChanges: true,
      // The `git status` way every time: its hook's answers are what this file checks
      // (watched-snapshot.test.ts checks the snapshots that run no git).
      withoutGit: false,
    });
    let tree = await repo.snapshot(undefined, "first");
    expect(tree).toBe(gitsOwnTree());
    // The watch starts beside the first snapshot; until every folder is watched git is told
    // "everything". A write each time, so each snapshot runs git and prepares an answer.
    for (let i = 0; i < 100 && lastAnswer() === "everything"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      writeFileSync(ws("pkg0/sub0/f5.ts"), `settling ${i}\n`);
      tree = await repo.snapshot(tree, "settle");
    }
    expect(lastAnswer()).toEqual(["pkg0/sub0/f5.ts", "pkg0/sub0/f5.ts/"]);
    expect(tree).toBe(gitsOwnTree());

    const changes: [string, () => void][] = [
      ["an edit", () => writeFileSync(ws("pkg1/sub1/f3.ts"), "changed\n")],
      [
        "a new file and an ignored one",
        () => {
          writeFileSync(ws("pkg2/new.ts"), "new\n");
          writeFileSync(ws("pkg2/debug.log"), "log\n");
        },
      ],
      [
        "a new folder tree",
        () => {
          mkdirSync(ws("pkg3/made/deeper"), { recursive: true });
          writeFileSync(ws("pkg3/made/a.ts"), "a\n");
          writeFileSync(ws("pkg3/made/deeper/b.ts"), "b\n");
        },
      ],
      ["a file in the new folder, watched since", () => writeFileSync(ws("pkg3/made/deeper/c.ts"), "c\n")],
      ["a removed folder", () => rmSync(ws("pkg4"), { recursive: true })],
      ["a moved folder", () => renameSync(ws("pkg5/sub0"), ws("pkg6/moved"))],
      ["a write in the moved folder", () => writeFileSync(ws("pkg6/moved/f1.ts"), "moved and changed\n")],
      [
        "a shell's writes right before it exits",
        () => {
          execFileSync(
            "sh",
            ["-c", "echo x > pkg7/sub2/f9.ts; rm pkg7/sub1/f0.ts; mkdir pkg7/sh; echo y > pkg7/sh/z.ts"],
            {
              cwd: dirs.workspace,
            },
          );
        },
      ],
    ];
    for (const [what, change] of changes) {
      change();
      const next = await repo.snapshot(tree, what);
      expect(next, what).toBe(gitsOwnTree());
      const answer = lastAnswer();
      expect(answer, what).not.toBe("everything");
      expect((answer as string[]).length, what).toBeGreaterThan(0);
      tree = next;
    }
    // Nothing changed: the same tree, and no git ran (the answer is still the last one).
    const before = lastAnswer();
    expect(await repo.snapshot(tree, "idle")).toBe(tree);
    expect(lastAnswer()).toEqual(before);
    // ...and the index still holds the token the next answer is for (else git is told "everything").
    const token = readFileSync(
      join(dirs.home, "shadow", "tern-index", "s1.git", "fsmonitor-token"),
      "utf8",
    ).trim();
    expect(readFileSync(join(dirs.home, "shadow", "tern-index", "s1")).includes(token)).toBe(true);
    // The next change is still answered in part: the index kept the token the answer is for.
    writeFileSync(ws("pkg1/sub2/f2.ts"), "after an idle round\n");
    tree = await repo.snapshot(tree, "edit after idle");
    expect(tree).toBe(gitsOwnTree());
    expect(lastAnswer()).toEqual(["pkg1/sub2/f2.ts", "pkg1/sub2/f2.ts/"]);
    // The index changed outside a snapshot (as undo changes it), the files did not: git must look
    // again, untracked files included (a file the index dropped is untracked now).
    await repo.forget(["pkg0/sub0/f0.ts"]);
    tree = await repo.snapshot(tree, "after forget");
    writeFileSync(ws("pkg0/sub0/f1.ts"), "an edit after the index changed\n");
    tree = await repo.snapshot(tree, "edit after forget");
    expect(tree).toBe(gitsOwnTree());
  });

  it("stays exact when the watch goes off (a nested .git appears): git compares everything again", async () => {
    for (let d = 0; d < 20; d++) {
      mkdirSync(ws(`pkg${d}`), { recursive: true });
      for (let f = 0; f < 20; f++) writeFileSync(ws(`pkg${d}/f${f}.ts`), `export const v = ${f};\n`);
    }
    repo = new ShadowRepo({
      gitDir: join(dirs.home, "shadow"),
      workTree: dirs.workspace,
      sessionId: "s1",
      watchChanges: true,
      withoutGit: false,
    });
    let tree = await repo.snapshot(undefined, "first");
    for (let i = 0; i < 100 && lastAnswer() === "everything"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      writeFileSync(ws("pkg0/f5.ts"), `settling ${i}\n`);
      tree = await repo.snapshot(tree, "settle");
    }
    expect(lastAnswer()).not.toBe("everything");
    // A folder holding `.git` (git leaves that name out; the watch stops at it).
    mkdirSync(ws("pkg1/vendored/.git"), { recursive: true });
    writeFileSync(ws("pkg1/vendored/lib.ts"), "lib\n");
    tree = await repo.snapshot(tree, "nested");
    expect(tree).toBe(gitsOwnTree());
    for (const [k, path] of ["pkg2/f1.ts", "pkg3/f2.ts"].entries()) {
      writeFileSync(ws(path), `after the watch went off ${k}\n`);
      tree = await repo.snapshot(tree, `edit ${k}`);
      expect(tree).toBe(gitsOwnTree());
    }
  });
});
