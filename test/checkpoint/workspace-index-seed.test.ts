// R-BIG-4: the first session in a workspace that is a git repository starts its index from the
// repository's own index (stat data and blob ids, the objects borrowed read-only), so its first
// snapshot is incremental and is waited for like any: a bash call in the first turn then cannot
// race it, and undo of that turn is exact without --force. Real git repositories with commits and
// a dirty working tree (an edit, a staged edit, a deletion, untracked files); the tree the seeded
// snapshot writes must equal the full snapshot's of the same files; the cases the seed cannot
// trust (split index, conflict, skip-worktree, a `.git` file, SHA-256, a filter) fall back.
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { useHarness } from "../engine/harness.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";

const h = useHarness();

const gitEnv = () => ({
  ...process.env,
  GIT_CONFIG_GLOBAL: "/dev/null",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@t",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@t",
});
const git = (args: string[], cwd = h.dirs.workspace) =>
  execFileSync("git", args, { cwd, env: gitEnv(), encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
const ws = (path: string) => join(h.dirs.workspace, path);

beforeEach(() => {
  // The seed reads the user's git config files: these are the test's, empty.
  vi.stubEnv("HOME", h.dirs.root);
  vi.stubEnv("XDG_CONFIG_HOME", join(h.dirs.root, "xdg"));
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A repository with two commits, then a dirty tree: an edit, a staged edit, a deletion, new files. */
function dirtyRepository(): void {
  git(["init", "--quiet", "--initial-branch=master", "."]);
  for (let d = 0; d < 6; d++) {
    mkdirSync(ws(`pkg${d}`), { recursive: true });
    for (let f = 0; f < 10; f++) writeFileSync(ws(`pkg${d}/f${f}.ts`), `export const v = ${d * 10 + f};\n`);
  }
  writeFileSync(ws(".gitignore"), "dist/\n");
  // Paths that are not ASCII (the index holds bytes; version 4 compresses their prefixes).
  writeFileSync(ws("pkg0/naïve.ts"), "n\n");
  writeFileSync(ws("pkg0/日本語.ts"), "j\n");
  writeFileSync(ws("run.sh"), "#!/bin/sh\necho 1\n", { mode: 0o755 });
  git(["add", "-A"]);
  git(["commit", "--quiet", "-m", "one"]);
  writeFileSync(ws("pkg0/f0.ts"), "export const v = 'second commit';\n");
  git(["commit", "--quiet", "-am", "two"]);
  writeFileSync(ws("pkg1/f1.ts"), "edited, not staged\n");
  writeFileSync(ws("pkg2/f2.ts"), "edited and staged\n");
  git(["add", "pkg2/f2.ts"]);
  writeFileSync(ws("pkg2/f2.ts"), "edited and staged, then edited again\n");
  rmSync(ws("pkg3/f3.ts"));
  writeFileSync(ws("pkg4/untracked.ts"), "new\n");
  mkdirSync(ws("fresh/deep"), { recursive: true });
  writeFileSync(ws("fresh/deep/a.txt"), "a\n");
  mkdirSync(ws("dist"), { recursive: true });
  writeFileSync(ws("dist/out.js"), "ignored\n");
}

/** Every file and folder of the workspace but `.git` (what undo must put back), with content and mode. */
function files(root = h.dirs.workspace): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const rel = relative(root, path);
      if (rel === ".git") continue;
      if (entry.isDirectory()) {
        out[`${rel}/`] = "";
        walk(path);
      } else out[rel] = `${(statSync(path).mode & 0o111).toString(8)}:${readFileSync(path, "utf8")}`;
    }
  };
  walk(root);
  return out;
}

/** The workspace's `.git`, byte for byte with times: the seed must never write there. */
function dotGitState(): string {
  const lines: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else
        lines.push(
          `${relative(ws(".git"), path)} ${statSync(path).mtimeMs} ${readFileSync(path).toString("base64")}`,
        );
    }
  };
  walk(ws(".git"));
  return lines.join("\n");
}

function shadowFor(workTree: string, name: string): ShadowRepo {
  return new ShadowRepo({ gitDir: join(h.dirs.home, name), workTree, sessionId: "s1" });
}

// Any first snapshot not seeded would run beside the batches (a bash call waits for it).
const session = () => h.start({ checkpoints: true, backgroundFirstFiles: 1 });

describe("the first snapshot seeded from the workspace's own git index", () => {
  it("a first turn's bash writes, creates and deletes: undo restores exactly without --force", async () => {
    dirtyRepository();
    const before = files();
    const dotGit = dotGitState();
    const seeds: unknown[] = [];
    const init = ShadowRepo.prototype.init;
    vi.spyOn(ShadowRepo.prototype, "init").mockImplementation(async function (this: ShadowRepo) {
      await init.apply(this);
      seeds.push(this.workspaceSeed);
    });
    const t = await session();
    const command =
      "echo changed > pkg1/f1.ts && echo again >> pkg2/f2.ts && echo made > pkg5/made.ts && " +
      "mkdir -p brand/new && echo x > brand/new/x.ts && rm pkg0/f0.ts pkg4/untracked.ts && chmod -x run.sh";
    h.provider.enqueue(openaiToolCalls([{ id: "b1", name: "bash", args: { command } }]), openaiText("done"));
    const outcome = await t.prompt("change files with the shell");
    expect(outcome.stopReason).toBe("completed");
    expect(seeds[0]).toMatchObject({ seeded: true, files: 64 });
    expect(readFileSync(ws("pkg1/f1.ts"), "utf8")).toBe("changed\n");
    const first = t.session.transcript().find((line) => line.type === "checkpoint");
    expect(first).toMatchObject({ round: 0 });
    expect(first).not.toHaveProperty("duringTools");
    const report = await t.session.send({ type: "undo", turns: 1 });
    expect(report.turns).toEqual([1]);
    expect(files()).toEqual(before);
    expect(dotGitState()).toBe(dotGit);
    expect(git(["status", "--porcelain"])).toContain(" M pkg1/f1.ts");
  });

  it("writes the same tree as a full first snapshot of the same files (index versions 2, 3 and 4)", async () => {
    dirtyRepository();
    const plain = join(h.dirs.root, "plain");
    cpSync(h.dirs.workspace, plain, { recursive: true, filter: (src) => !src.endsWith("/.git") });
    const full = shadowFor(plain, "full");
    const expected = await full.snapshot(undefined, "full");
    expect(full.workspaceSeed).toEqual({ seeded: false, why: "not a git repository" });
    for (const version of ["2", "3", "4"]) {
      git(["update-index", "--index-version", version]);
      const seeded = shadowFor(h.dirs.workspace, `seeded-v${version}`);
      expect(await seeded.snapshot(undefined, "seeded")).toBe(expected);
      expect(seeded.workspaceSeed).toMatchObject({ seeded: true });
      // The borrowed blobs stay the repository's, named for readers only (no alternates file).
      const shadow = join(h.dirs.home, `seeded-v${version}`);
      expect(readFileSync(join(shadow, "tern-borrowed-objects"), "utf8")).toBe(`${ws(".git/objects")}\n`);
      expect(existsSync(join(shadow, "objects/info/alternates"))).toBe(false);
    }
  });

  it("a session whose index was pruned keeps its ref: the seed never moves it", async () => {
    dirtyRepository();
    const first = shadowFor(h.dirs.workspace, "pruned");
    const tree = await first.snapshot(undefined, "first");
    const ref = (await first.git(["rev-parse", "refs/tern/s1"])).stdout.trim();
    rmSync(join(h.dirs.home, "pruned", "tern-index", "s1"));
    const again = shadowFor(h.dirs.workspace, "pruned");
    await again.init();
    expect(again.workspaceSeed).toMatchObject({ seeded: true });
    expect((await again.git(["rev-parse", "refs/tern/s1"])).stdout.trim()).toBe(ref);
    expect(await again.snapshot(tree, "again")).toBe(tree);
  });

  const fallbacks: [string, () => void, string][] = [
    [
      "an index cut short",
      () => writeFileSync(ws(".git/index"), readFileSync(ws(".git/index")).subarray(0, 200)),
      "its index could not be read (index entries run past the file)",
    ],
    ["a split index", () => git(["update-index", "--split-index"]), "a split index"],
    [
      "a skip-worktree entry",
      () => git(["update-index", "--skip-worktree", "pkg5/f5.ts"]),
      "pkg5/f5.ts is assume-unchanged, skip-worktree or intent-to-add",
    ],
    [
      "an assume-unchanged entry",
      () => git(["update-index", "--assume-unchanged", "pkg5/f6.ts"]),
      "pkg5/f6.ts is assume-unchanged, skip-worktree or intent-to-add",
    ],
    [
      "a conflict",
      () => {
        git(["checkout", "--quiet", "-b", "side", "HEAD~1"]);
        writeFileSync(ws("pkg0/f0.ts"), "side\n");
        git(["commit", "--quiet", "-am", "side"]);
        try {
          git(["merge", "--quiet", "master"]);
        } catch {
          // The conflict is the point.
        }
      },
      "a conflict at pkg0/f0.ts",
    ],
    [
      "a filter in .gitattributes",
      () => {
        writeFileSync(ws(".gitattributes"), "*.bin filter=lfs diff=lfs merge=lfs -text\n");
        git(["add", ".gitattributes"]);
      },
      ".gitattributes converts content",
    ],
    [
      "autocrlf in the repository's config",
      () => git(["config", "core.autocrlf", "input"]),
      "its config converts line endings, names a work tree or has extensions",
    ],
  ];
  for (const [name, make, why] of fallbacks)
    it(`falls back to the full first snapshot for ${name}`, async () => {
      dirtyRepository();
      make();
      const repo = shadowFor(h.dirs.workspace, "shadow");
      await repo.snapshot(undefined, "first");
      expect(repo.workspaceSeed).toEqual({ seeded: false, why });
      expect(repo.seeded).toBe(false);
      expect(existsSync(join(h.dirs.home, "shadow", "tern-borrowed-objects"))).toBe(false);
    });

  it("seeds a linked worktree from its own index, and falls back for a SHA-256 repository", async () => {
    dirtyRepository();
    const linked = join(h.dirs.root, "linked");
    git(["worktree", "add", "--quiet", linked]);
    writeFileSync(join(linked, "pkg0/f1.ts"), "edited in the worktree\n");
    const dotGit = dotGitState();
    const inWorktree = shadowFor(linked, "linked");
    const tree = await inWorktree.snapshot(undefined, "first");
    expect(inWorktree.workspaceSeed).toMatchObject({ seeded: true, files: 64 });
    const plain = join(h.dirs.root, "linked-plain");
    cpSync(linked, plain, { recursive: true, filter: (src) => !src.endsWith("/.git") });
    expect(await shadowFor(plain, "linked-full").snapshot(undefined, "full")).toBe(tree);
    // The main repository's folder (the worktree's own git folder lies inside it) is untouched.
    expect(dotGitState()).toBe(dotGit);
    const sha256 = join(h.dirs.root, "sha256");
    mkdirSync(sha256);
    git(["init", "--quiet", "--object-format=sha256", "."], sha256);
    writeFileSync(join(sha256, "a.txt"), "a\n");
    git(["add", "a.txt"], sha256);
    const repo = shadowFor(sha256, "sha256");
    await repo.snapshot(undefined, "first");
    expect(repo.workspaceSeed).toEqual({
      seeded: false,
      why: "its config converts line endings, names a work tree or has extensions",
    });
  });
});
