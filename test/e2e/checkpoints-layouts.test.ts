// Checkpoints in awkward workspace layouts: git repositories of its own inside (a vendored clone,
// a submodule whose `.git` is a file, a fresh `git init` without a commit) whose files are
// snapshotted and restored like any other, none of their `.git` changed; and TERN_HOME inside
// the workspace (tern started in the home folder), whose records are never the user's files.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { jsonEvents, runCli } from "../support/cli.js";
import { recordLines, ternRun, useE2E } from "./tools-support.js";

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);
const read = (name: string) => readFileSync(ws(name), "utf8");

function git(args: string[], cwd: string): string {
  return execFileSync("git", args, {
    cwd,
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

/** Hash of every file under a folder, so any byte changed there shows. */
function hashTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else out[relative(root, path)] = createHash("sha256").update(readFileSync(path)).digest("hex");
    }
  };
  walk(root);
  return out;
}

describe("checkpoints with nested git repositories", () => {
  it("restores files inside a cloned repository, a submodule-style .git file and an uncommitted git init", async () => {
    // A vendored clone with a commit.
    mkdirSync(ws("vendor/lib"), { recursive: true });
    writeFileSync(ws("vendor/lib/a.txt"), "a\n");
    git(["init", "-q"], ws("vendor/lib"));
    git(["add", "."], ws("vendor/lib"));
    git(["commit", "-qm", "base"], ws("vendor/lib"));
    // A folder whose .git is a file pointing elsewhere, as a submodule's is.
    mkdirSync(ws("modrepo"));
    git(["init", "-q", "--separate-git-dir", join(e.dirs.home, "modgit")], ws("modrepo"));
    writeFileSync(ws("modrepo/m.txt"), "m\n");
    // A fresh `git init` with no commit (git add of such a folder fails outright).
    mkdirSync(ws("fresh"));
    git(["init", "-q"], ws("fresh"));
    writeFileSync(ws("fresh/f.txt"), "f\n");
    writeFileSync(ws("top.txt"), "t\n");
    const gits = {
      vendor: hashTree(ws("vendor/lib/.git")),
      fresh: hashTree(ws("fresh/.git")),
      mod: hashTree(join(e.dirs.home, "modgit")),
      modFile: read("modrepo/.git"),
    };

    e.provider.enqueue(
      openaiToolCalls([
        {
          id: "b1",
          name: "bash",
          args: {
            command:
              "echo changed > vendor/lib/a.txt && echo new > vendor/lib/b.txt && rm modrepo/m.txt && echo x > fresh/f.txt && echo t2 > top.txt",
          },
        },
      ]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    expect(run.events.filter((ev) => ev.type === "notice" && /checkpoints are off/.test(ev.text))).toEqual(
      [],
    );

    const undo = await e.run(["undo"]);
    expect(undo.stderr).not.toMatch(/error|tern:/i);
    expect(undo.code).toBe(0);
    expect(read("vendor/lib/a.txt")).toBe("a\n");
    expect(existsSync(ws("vendor/lib/b.txt"))).toBe(false);
    expect(read("modrepo/m.txt")).toBe("m\n");
    expect(read("fresh/f.txt")).toBe("f\n");
    expect(read("top.txt")).toBe("t\n");
    expect(undo.stdout).toMatch(/changed\s+vendor\/lib\/a\.txt/);
    expect(undo.stdout).toMatch(/deleted\s+vendor\/lib\/b\.txt/);
    expect(undo.stdout).toMatch(/created\s+modrepo\/m\.txt/);

    expect(hashTree(ws("vendor/lib/.git"))).toEqual(gits.vendor);
    expect(hashTree(ws("fresh/.git"))).toEqual(gits.fresh);
    expect(hashTree(join(e.dirs.home, "modgit"))).toEqual(gits.mod);
    expect(read("modrepo/.git")).toBe(gits.modFile);
  });

  it("leaves TERN_HOME out when it lies inside the workspace: undo neither refuses over it nor rewrites it", async () => {
    const home = join(e.dirs.workspace, "my home");
    mkdirSync(home);
    writeFileSync(ws("a.txt"), "a\n");
    e.provider.enqueue(
      openaiToolCalls([{ id: "b1", name: "bash", args: { command: "echo b > a.txt" } }]),
      openaiToolCalls([{ id: "b2", name: "bash", args: { command: "echo c > a.txt" } }]),
      openaiText("ok"),
    );
    const tern = (args: string[]) =>
      runCli(args, { home, cwd: e.dirs.workspace, env: { OPENAI_API_KEY: "sk-test-key" } });
    const run = await tern([
      "run",
      "--json",
      "--yes",
      "--model",
      "openai/mock-1",
      "--base-url",
      e.provider.baseUrl,
      "go",
    ]);
    expect(run.code).toBe(0);
    expect(
      jsonEvents(run.stdout).filter((ev) => ev.type === "notice" && /checkpoints/.test(ev.text)),
    ).toEqual([]);

    const diff = await tern(["diff"]);
    expect(diff.code).toBe(0);
    expect(diff.stdout.split("\n").filter((l) => l.startsWith("diff --git"))).toEqual([
      "diff --git a/a.txt b/a.txt",
    ]);
    const homeBefore = hashTree(join(home, "sessions"));
    const undo = await tern(["undo"]);
    expect(undo.stderr).not.toMatch(/changed since|tern:/);
    expect(undo.code).toBe(0);
    expect(read("a.txt")).toBe("a\n");
    expect(undo.stdout).not.toContain("my home");
    // Only the undo line was added to the record; nothing of the home was restored over.
    const after = hashTree(join(home, "sessions"));
    const changed = Object.keys(after).filter((k) => after[k] !== homeBefore[k]);
    expect(changed.every((k) => /record\.jsonl$|meta\.json$/.test(k))).toBe(true);
  });

  it("a file over 10 MB that a turn shrank is never deleted by undo; one the turn grew past 10 MB gets its content back", async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 10, 65);
    writeFileSync(ws("big.csv"), big);
    writeFileSync(ws("huge.log"), big);
    writeFileSync(ws("small.txt"), "small\n");
    e.provider.enqueue(
      openaiToolCalls([
        {
          id: "b1",
          name: "bash",
          args: {
            command:
              "head -c 100 big.csv > t && mv t big.csv && rm huge.log && head -c 11000000 /dev/zero >> small.txt && echo new > made.txt",
          },
        },
      ]),
      openaiText("ok"),
    );
    expect((await ternRun(e, ["--yes"])).code).toBe(0);
    const undo = await e.run(["undo"]);
    expect(undo.code).toBe(0);
    // Its content was never kept, so it is left as the turn made it, and said so: never deleted.
    expect(statSync(ws("big.csv")).size).toBe(100);
    expect(undo.stdout).toMatch(/not restored \(over 10 MB\)\s+big\.csv/);
    expect(existsSync(ws("huge.log"))).toBe(false);
    expect(undo.stdout).toMatch(/not restored \(over 10 MB\)\s+huge\.log/);
    // Small when snapshotted: its content was kept and comes back.
    expect(read("small.txt")).toBe("small\n");
    expect(existsSync(ws("made.txt"))).toBe(false);
  });

  it("a turn that removed or narrowed a .gitignore: undo brings the rules back and deletes none of the files they ignore", async () => {
    writeFileSync(ws(".gitignore"), "secret.env\nnode_modules/\n");
    mkdirSync(ws("sub"));
    writeFileSync(ws("sub/.gitignore"), "*.tmp\n");
    writeFileSync(ws("secret.env"), "KEY=1\n");
    writeFileSync(ws("sub/cache.tmp"), "cache\n");
    mkdirSync(ws("node_modules/x"), { recursive: true });
    writeFileSync(ws("node_modules/x/index.js"), "module.exports = 1;\n");
    e.provider.enqueue(
      openaiToolCalls([
        {
          id: "b1",
          name: "bash",
          args: { command: "rm .gitignore && echo '# none' > sub/.gitignore && echo made > made.txt" },
        },
      ]),
      openaiText("ok"),
    );
    expect((await ternRun(e, ["--yes"])).code).toBe(0);
    const undo = await e.run(["undo"]);
    expect(undo.code).toBe(0);
    expect(read(".gitignore")).toBe("secret.env\nnode_modules/\n");
    expect(read("sub/.gitignore")).toBe("*.tmp\n");
    expect(existsSync(ws("made.txt"))).toBe(false);
    expect(read("secret.env")).toBe("KEY=1\n");
    expect(read("sub/cache.tmp")).toBe("cache\n");
    expect(read("node_modules/x/index.js")).toBe("module.exports = 1;\n");
    expect(undo.stdout).not.toMatch(/secret\.env|node_modules|cache\.tmp/);

    const redo = await e.run(["redo"]);
    expect(redo.code).toBe(0);
    expect(existsSync(ws(".gitignore"))).toBe(false);
    expect(read("made.txt")).toBe("made\n");
    expect(read("secret.env")).toBe("KEY=1\n");
    expect(read("node_modules/x/index.js")).toBe("module.exports = 1;\n");
  });

  it("empty folders a turn made go with undo, ones it removed come back, and redo reverses both", async () => {
    mkdirSync(ws("old-empty"));
    mkdirSync(ws("keep/inner"), { recursive: true });
    mkdirSync(ws("solo"));
    writeFileSync(ws("solo/only.txt"), "only\n");
    e.provider.enqueue(
      openaiToolCalls([
        {
          id: "b1",
          name: "bash",
          args: {
            command:
              "mkdir made && mkdir -p a/b/c && rmdir old-empty && mkdir keep/inner/x && rm solo/only.txt",
          },
        },
      ]),
      openaiText("ok"),
    );
    expect((await ternRun(e, ["--yes"])).code).toBe(0);
    // Folder marks never show as files in a diff.
    expect((await e.run(["diff"])).stdout).not.toContain(".tern-empty-folder");

    const undo = await e.run(["undo"]);
    expect(undo.stderr).not.toMatch(/changed since|tern:/);
    expect(undo.code).toBe(0);
    for (const gone of ["made", "a", "keep/inner/x"]) expect(existsSync(ws(gone))).toBe(false);
    for (const back of ["old-empty", "keep/inner"]) expect(statSync(ws(back)).isDirectory()).toBe(true);
    expect(read("solo/only.txt")).toBe("only\n");
    expect(undo.stdout).toMatch(/deleted folder\s+made\//);
    expect(undo.stdout).toMatch(/deleted folder\s+a\//);
    expect(undo.stdout).toMatch(/created folder\s+old-empty\//);
    expect(existsSync(ws(".tern-empty-folder"))).toBe(false);

    const redo = await e.run(["redo"]);
    expect(redo.code).toBe(0);
    for (const made of ["made", "a/b/c", "keep/inner/x", "solo"])
      expect(statSync(ws(made)).isDirectory()).toBe(true);
    expect(existsSync(ws("old-empty"))).toBe(false);
    expect(existsSync(ws("solo/only.txt"))).toBe(false);

    // A folder the user makes afterwards is named in the refusal as a folder.
    mkdirSync(ws("user-made"));
    const refused = await e.run(["undo"]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/files changed since the session's last snapshot: user-made\/ /);
  });

  it("counts the files of nested repositories against checkpoints.maxFiles", async () => {
    mkdirSync(ws("vendor/big"), { recursive: true });
    git(["init", "-q"], ws("vendor/big"));
    for (let i = 0; i < 30; i++) writeFileSync(ws(`vendor/big/f${i}.txt`), `${i}\n`);
    writeFileSync(ws("top.txt"), "t\n");
    writeFileSync(join(e.dirs.home, "config.json"), JSON.stringify({ checkpoints: { maxFiles: 10 } }));
    e.provider.enqueue(
      openaiToolCalls([{ id: "b1", name: "bash", args: { command: "echo more > top.txt" } }]),
      openaiText("ok"),
    );
    const run = await ternRun(e, ["--yes"]);
    expect(run.code).toBe(0);
    const notices = run.events.filter((ev) => ev.type === "notice" && /checkpoints are off/.test(ev.text));
    expect(notices.map((n) => n.text)).toEqual([
      "checkpoints are off: the workspace has more than 10 files (checkpoints.maxFiles is 10)",
    ]);
  });

  it("undo and diff of a session whose workspace is gone say so (not 'no git' or 'no snapshot')", async () => {
    writeFileSync(ws("a.txt"), "a\n");
    e.provider.enqueue(
      openaiToolCalls([{ id: "b1", name: "bash", args: { command: "echo b > a.txt" } }]),
      openaiText("ok"),
    );
    expect((await ternRun(e, ["--yes"])).code).toBe(0);
    const id = recordLines(e)[0].id as string;
    const moved = `${e.dirs.workspace}-moved`;
    renameSync(e.dirs.workspace, moved);
    try {
      for (const command of ["undo", "diff"]) {
        const r = await runCli([command, id], { home: e.dirs.home, cwd: moved });
        expect(r.code).toBe(2);
        expect(r.stderr).toBe(
          `tern: the workspace ${e.dirs.workspace} no longer exists (moved or deleted)\n`,
        );
      }
    } finally {
      renameSync(moved, e.dirs.workspace);
    }
  });
});
