// Checkpoints through the built CLI: snapshots into a shadow repository, `tern undo` / `redo` /
// `diff`, the workspace's own .git untouched, ignored files untouched, refusal and --force.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { recordLines, ternRun, useE2E } from "./tools-support.js";

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);
const read = (name: string) => readFileSync(ws(name), "utf8");

function git(args: string[]): string {
  return execFileSync("git", args, {
    cwd: e.dirs.workspace,
    encoding: "utf8",
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
    },
  });
}

/** Hash of every file under .git, so any byte tern changed there shows. */
function hashTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const st = statSync(path);
      if (st.isDirectory()) walk(path);
      else out[relative(root, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  walk(root);
  return out;
}

/** A turn whose tools edit, create, delete files and make a folder, by edit tools and by bash. */
function enqueueChangingTurn(): void {
  e.provider.enqueue(
    openaiToolCalls([
      { id: "r1", name: "read_file", args: { path: "keep.txt" } },
      { id: "w1", name: "write_file", args: { path: "src/new/made.ts", content: "export const x = 1;\n" } },
    ]),
    openaiToolCalls([
      { id: "e1", name: "edit_file", args: { path: "keep.txt", old_string: "one", new_string: "ONE" } },
      {
        id: "b1",
        name: "bash",
        args: { command: "rm gone.txt && mkdir -p out/deep && echo hi > out/deep/f.txt" },
      },
    ]),
    openaiText("done"),
  );
}

function seedWorkspace(): void {
  writeFileSync(ws("keep.txt"), "one\ntwo\n");
  writeFileSync(ws("gone.txt"), "bye\n");
  writeFileSync(ws(".gitignore"), "ignored.log\n");
  writeFileSync(ws("ignored.log"), "original\n");
}

describe("checkpoints and tern undo", () => {
  it("undoes every kind of change, prints each path, and leaves .git and ignored files alone", async () => {
    seedWorkspace();
    git(["init", "-q"]);
    git(["add", "keep.txt", "gone.txt", ".gitignore"]);
    git(["commit", "-q", "-m", "base"]);
    const gitBefore = hashTree(ws(".git"));
    // --no-optional-locks: a plain `git status` rewrites the index, which would hide what tern did.
    const statusBefore = git(["--no-optional-locks", "status", "--porcelain"]);

    enqueueChangingTurn();
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    expect(read("keep.txt")).toBe("ONE\ntwo\n");
    expect(existsSync(ws("gone.txt"))).toBe(false);
    writeFileSync(ws("ignored.log"), "changed by someone, ignored\n");

    const lines = recordLines(e);
    const checkpoints = lines.filter((l) => l.type === "checkpoint");
    expect(checkpoints.map((c) => [c.turn, c.round])).toEqual([
      [1, 0],
      [1, 1],
      [1, 2],
    ]);
    expect(checkpoints.every((c) => /^[0-9a-f]{40}$/.test(c.tree))).toBe(true);
    // The workspace's own repository saw nothing: no refs, objects or index changes.
    expect(hashTree(ws(".git"))).toEqual(gitBefore);

    const undo = await e.run(["undo"]);
    expect(undo.stderr).not.toMatch(/error|at /i);
    expect(undo.code).toBe(0);
    expect(read("keep.txt")).toBe("one\ntwo\n");
    expect(read("gone.txt")).toBe("bye\n");
    expect(existsSync(ws("src"))).toBe(false);
    expect(existsSync(ws("out"))).toBe(false);
    expect(read("ignored.log")).toBe("changed by someone, ignored\n");
    expect(undo.stdout).toMatch(/undid 1 turn \(1\)/);
    expect(undo.stdout).toMatch(/changed\s+keep\.txt/);
    expect(undo.stdout).toMatch(/created\s+gone\.txt/);
    expect(undo.stdout).toMatch(/deleted\s+src\/new\/made\.ts/);
    expect(undo.stdout).toMatch(/deleted\s+out\/deep\/f\.txt/);
    expect(undo.stdout).toMatch(/deleted folder\s+src\/new\//);
    expect(undo.stdout).toMatch(/deleted folder\s+out\//);

    expect(hashTree(ws(".git"))).toEqual(gitBefore);
    expect(git(["--no-optional-locks", "status", "--porcelain"])).toBe(statusBefore);

    // redo puts the turn's effects back.
    const redo = await e.run(["redo"]);
    expect(redo.code).toBe(0);
    expect(read("keep.txt")).toBe("ONE\ntwo\n");
    expect(read("src/new/made.ts")).toBe("export const x = 1;\n");
    expect(read("out/deep/f.txt")).toBe("hi\n");
    expect(existsSync(ws("gone.txt"))).toBe(false);
    expect(redo.stdout).toMatch(/redid 1 turn \(1\)/);
    expect(hashTree(ws(".git"))).toEqual(gitBefore);
  });

  it("works in a folder that is not a git repository; --continue after undo no longer sends the undone turn", async () => {
    seedWorkspace();
    e.provider.enqueue(openaiText("first answer"));
    expect((await ternRun(e, ["--yes"], "first prompt")).code).toBe(0);
    enqueueChangingTurn();
    expect((await ternRun(e, ["--yes", "--continue"], "second prompt")).code).toBe(0);
    expect(existsSync(ws(".git"))).toBe(false);

    const undo = await e.run(["undo"]);
    expect(undo.code).toBe(0);
    expect(read("keep.txt")).toBe("one\ntwo\n");
    expect(existsSync(ws("src"))).toBe(false);

    e.provider.enqueue(openaiText("third answer"));
    expect((await ternRun(e, ["--yes", "--continue"], "third prompt")).code).toBe(0);
    // A turn that ran no tool took no snapshot: the first turn's record has none.
    expect(recordLines(e).filter((l) => l.type === "checkpoint" && l.turn !== 2)).toEqual([]);
    const body = JSON.stringify(e.provider.requests.at(-1)!.body.messages);
    expect(body).toContain("first prompt");
    expect(body).not.toContain("second prompt");
    expect(body).toContain("third prompt");
    // New work after an undo: nothing left to redo.
    const redo = await e.run(["redo"]);
    expect(redo.code).toBe(2);
    expect(redo.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("undoes several turns with --turns and diffs a session and a turn", async () => {
    writeFileSync(ws("a.txt"), "a0\n");
    for (const [i, text] of ["a1", "a2"].entries()) {
      e.provider.enqueue(
        openaiToolCalls([{ id: `b${i}`, name: "bash", args: { command: `echo ${text} > a.txt` } }]),
        openaiText("ok"),
      );
      expect((await ternRun(e, ["--yes", ...(i > 0 ? ["--continue"] : [])], `turn ${i + 1}`)).code).toBe(0);
    }
    const diffAll = await e.run(["diff"]);
    expect(diffAll.code).toBe(0);
    expect(diffAll.stdout).toMatch(/^-a0$/m);
    expect(diffAll.stdout).toMatch(/^\+a2$/m);
    const diffTurn2 = await e.run(["diff", "--turn", "2"]);
    expect(diffTurn2.stdout).toMatch(/^-a1$/m);
    expect(diffTurn2.stdout).toMatch(/^\+a2$/m);
    expect(diffTurn2.stdout).not.toMatch(/^[-+]a0$/m);

    const undo = await e.run(["undo", "--turns", "2"]);
    expect(undo.code).toBe(0);
    expect(read("a.txt")).toBe("a0\n");
    expect(undo.stdout).toMatch(/undid 2 turns \(1, 2\)/);
    const tooMany = await e.run(["undo", "--turns", "5"]);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toMatch(/no turn to undo|only \d+ turn/);
  });

  it("keeps the newest sessions' indexes only, and an older session's undo and diff still work", async () => {
    writeFileSync(ws("f.txt"), "f0\n");
    const ids: string[] = [];
    for (let i = 1; i <= 6; i++) {
      e.provider.enqueue(
        openaiToolCalls([{ id: `b${i}`, name: "bash", args: { command: `echo f${i} > f.txt` } }]),
        openaiText("ok"),
      );
      const run = await ternRun(e, ["--yes"], `session ${i}`);
      expect(run.code).toBe(0);
      ids.push(run.events.find((ev) => ev.type === "session").id);
    }
    const [shadow] = readdirSync(join(e.dirs.home, "checkpoints"));
    const indexes = readdirSync(join(e.dirs.home, "checkpoints", shadow, "tern-index"));
    // The last session pruned at its start: the three newest others and its own are left.
    expect(indexes.filter((name) => !name.includes(".")).sort()).toEqual(ids.slice(2).sort());
    expect(indexes.filter((name) => name.endsWith(".git")).sort()).toEqual(
      ids
        .slice(2)
        .map((id) => `${id}.git`)
        .sort(),
    );

    const diff = await e.run(["diff", ids[0]]);
    expect(diff.code).toBe(0);
    expect(diff.stdout).toMatch(/^-f0$/m);
    expect(diff.stdout).toMatch(/^\+f1$/m);
    const undo = await e.run(["undo", ids[0], "--force"]);
    expect(undo.code, undo.stderr).toBe(0);
    expect(read("f.txt")).toBe("f0\n");
  });

  it("refuses when files changed after the newest snapshot, naming them, unless --force", async () => {
    seedWorkspace();
    enqueueChangingTurn();
    expect((await ternRun(e, ["--yes"])).code).toBe(0);
    writeFileSync(ws("keep.txt"), "edited by the user\n");
    writeFileSync(ws("user-new.txt"), "mine\n");

    const refused = await e.run(["undo"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/keep\.txt/);
    expect(refused.stderr).toMatch(/user-new\.txt/);
    expect(refused.stderr).toMatch(/--force/);
    expect(read("keep.txt")).toBe("edited by the user\n");

    const forced = await e.run(["undo", "--force"]);
    expect(forced.code).toBe(0);
    expect(read("keep.txt")).toBe("one\ntwo\n");
    expect(existsSync(ws("user-new.txt"))).toBe(false);
    expect(read("gone.txt")).toBe("bye\n");
  });

  it("skips files over 10 MB, and is off with one notice when the workspace is too big", async () => {
    writeFileSync(ws("small.txt"), "s\n");
    writeFileSync(ws("big.bin"), Buffer.alloc(10 * 1024 * 1024 + 1, 1));
    e.provider.enqueue(
      openaiToolCalls([
        { id: "b1", name: "bash", args: { command: "echo t > small.txt && echo x >> big.bin" } },
      ]),
      openaiText("ok"),
    );
    expect((await ternRun(e, ["--yes"])).code).toBe(0);
    expect((await e.run(["undo"])).code).toBe(0);
    expect(read("small.txt")).toBe("s\n");
    // Never snapshotted, so never restored: the big file keeps what the turn appended.
    expect(statSync(ws("big.bin")).size).toBe(10 * 1024 * 1024 + 3);

    mkdirSync(ws("many"));
    for (let i = 0; i < 30; i++) writeFileSync(ws(`many/f${i}.txt`), `${i}\n`);
    writeFileSync(join(e.dirs.home, "config.json"), JSON.stringify({ checkpoints: { maxFiles: 10 } }));
    // Snapshots start with a turn's first tool batch: a turn that runs none costs no git process.
    e.provider.enqueue(
      openaiToolCalls([{ id: "b2", name: "bash", args: { command: "echo more > small.txt" } }]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--yes"], "new session");
    expect(run.code).toBe(0);
    const notices = run.events.filter((ev) => ev.type === "notice" && /checkpoints are off/.test(ev.text));
    expect(notices).toHaveLength(1);
    expect(notices[0].text).toMatch(/checkpoints\.maxFiles is 10/);
  });

  it("a shadow repository left by a kill -9 mid-snapshot is still usable", async () => {
    seedWorkspace();
    enqueueChangingTurn();
    expect((await ternRun(e, ["--yes"])).code).toBe(0);
    // What a killed snapshot leaves behind: the index and ref lock files of its session.
    const shadowRoot = join(e.dirs.home, "checkpoints");
    const shadow = join(shadowRoot, readdirSync(shadowRoot)[0]);
    const session = readdirSync(join(shadow, "tern-index")).find((n) => !n.endsWith(".lock"))!;
    writeFileSync(join(shadow, "tern-index", `${session}.lock`), "");
    mkdirSync(join(shadow, "refs", "tern"), { recursive: true });
    writeFileSync(join(shadow, "refs", "tern", `${session}.lock`), "");
    e.provider.enqueue(
      openaiToolCalls([{ id: "b9", name: "bash", args: { command: "echo later > later.txt" } }]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--yes", "--continue"]);
    expect(run.code).toBe(0);
    expect(run.events.some((ev) => ev.type === "notice" && /checkpoints are off/.test(ev.text))).toBe(false);
    expect((await e.run(["undo"])).code).toBe(0);
    expect(existsSync(ws("later.txt"))).toBe(false);
  });
});
