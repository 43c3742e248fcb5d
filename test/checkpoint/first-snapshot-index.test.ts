// A full first snapshot reads and hashes each file once: fast-import writes and names the blobs
// and the session index is written in-process (first-snapshot.ts, index-writer.ts) with the stat
// taken before each file was read. Its tree must be the one update-index staging makes of the
// same workspace (ignore rules with negations and nested files, a `.gitattributes` conversion,
// a file over 10 MB, a nested repository, empty folders, a link, an executable, a FIFO, TERN_HOME
// inside), and its index's stat data must let the next `git status` trust unchanged files.
import { execFileSync } from "node:child_process";
import { lstatSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inProcessIndex, readForIndex } from "../../src/checkpoint/first-snapshot.js";
import { PRELOAD_MIN_FILES } from "../../src/checkpoint/object-preload.js";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { richWorkspace as makeRich } from "./rich-workspace.js";

let dirs: TempDirs;
const ws = (p: string) => join(dirs.workspace, p);
const LONG_AGO = new Date(Date.now() - 60_000);
const write = (path: string, text: string) => writeFileSync(ws(path), text);
const richWorkspace = () => {
  makeRich(dirs.workspace, PRELOAD_MIN_FILES);
  mkdirSync(ws(".tern-home/sessions"), { recursive: true });
  writeFileSync(ws(".tern-home/sessions/x.json"), "{}\n");
};

beforeEach(() => {
  dirs = makeTempDirs();
  inProcessIndex.on = true;
});
afterEach(() => {
  inProcessIndex.on = true;
  dirs.cleanup();
});

/** Every regular file older than git's racy window, so their stat can be trusted. */
function age(paths: string[]) {
  for (const p of paths) utimesSync(ws(p), LONG_AGO, LONG_AGO);
}

const shadow = (name: string) =>
  new ShadowRepo({
    gitDir: join(dirs.home, name),
    workTree: dirs.workspace,
    sessionId: "s1",
    leaveOut: [ws(".tern-home")],
  });

function lsTree(repo: ShadowRepo, tree: string): string {
  return execFileSync("git", ["--git-dir", repo.gitDir, "ls-tree", "-r", "-z", tree], { encoding: "utf8" });
}

/** `git ls-files --debug` of the session index: each path's stat as git holds it. */
async function indexStats(repo: ShadowRepo): Promise<Map<string, { mtime: string; size: number }>> {
  const out = (await repo.git(["ls-files", "--debug"])).stdout;
  const stats = new Map<string, { mtime: string; size: number }>();
  const blocks = out.split(/\n(?=\S)/);
  for (const block of blocks) {
    const path = block.split("\n")[0];
    const mtime = /mtime: (\d+:\d+)/.exec(block)?.[1] ?? "";
    const size = Number(/size: (\d+)/.exec(block)?.[1]);
    stats.set(path, { mtime, size });
  }
  return stats;
}

describe("first snapshot with the index written in-process", () => {
  it("makes the tree update-index staging makes, every case kept or left out alike", async () => {
    richWorkspace();
    const fast = shadow("fast");
    const fastTree = await fast.snapshot(undefined, "first");
    inProcessIndex.on = false;
    const old = shadow("old");
    const oldTree = await old.snapshot(undefined, "first");
    expect(lsTree(fast, fastTree)).toBe(lsTree(old, oldTree));
    expect(fastTree).toBe(oldTree);
    const listed = lsTree(fast, fastTree).split("\0");
    const line = (path: string) => listed.find((l) => l.endsWith(`\t${path}`)) ?? "";
    expect(line("run.sh")).toMatch(/^100755 /);
    expect(line("link.ts")).toMatch(/^120000 /);
    expect(line("vendor/lib/sub/more.js")).toMatch(/^100644 /);
    expect(line("empty/deep/.tern-empty-folder")).not.toBe("");
    expect(line("keep.log")).not.toBe("");
    for (const gone of ["drop.log", "ignored/a.txt", "pkg1/secret.txt", "pipe", ".tern-home/sessions/x.json"])
      expect(line(gone)).toBe("");
  });

  it("keeps each file's stat: the next status trusts unchanged files, the next snapshot stages one edit", async () => {
    richWorkspace();
    const files = execFileSync("find", [".", "-type", "f", "-not", "-path", "./vendor/lib/.git/*"], {
      cwd: dirs.workspace,
      encoding: "utf8",
    })
      .split("\n")
      .filter(Boolean)
      .map((p) => p.slice(2));
    age(files);
    write("fresh.ts", "written just now\n");
    const repo = shadow("fast");
    const tree = await repo.snapshot(undefined, "first");
    const stats = await indexStats(repo);
    const sample = lstatSync(ws("pkg3/src/f4.ts"));
    const held = stats.get("pkg3/src/f4.ts");
    expect(held?.size).toBe(sample.size);
    expect(held?.mtime).toBe(
      `${Math.floor(sample.mtimeMs / 1000)}:${lstatSync(ws("pkg3/src/f4.ts"), { bigint: true }).mtimeNs % 1_000_000_000n}`,
    );
    // Written within the racy window: held with size 0 (git compares its content, never trusts it).
    write("fresh.ts", "written just now, again\n");
    expect(readForIndex(dirs.workspace, "fresh.ts")?.entry.size).toBe(0);
    expect(readForIndex(dirs.workspace, "pkg3/src/f5.ts")?.entry.size).toBe(
      lstatSync(ws("pkg3/src/f5.ts")).size,
    );
    expect(readForIndex(dirs.workspace, "pipe")).toBeUndefined();
    expect(readForIndex(dirs.workspace, "link.ts")).toBeUndefined();
    // Marks of empty folders are no files: status names them as any index entry missing on disk.
    const changed = (await repo.changedPaths()).filter((p) => !p.endsWith("/.tern-empty-folder"));
    expect(changed).toEqual(["fresh.ts"]);
    writeFileSync(ws("pkg3/src/f4.ts"), "changed\n");
    const next = await repo.snapshot(tree, "second");
    // fresh.ts was written again above.
    expect((await repo.treeChanges(tree, next)).map((c) => c.path)).toEqual(["fresh.ts", "pkg3/src/f4.ts"]);
  });

  it("a later snapshot of many new files over a full index stages them without losing the others' stat", async () => {
    richWorkspace();
    age(["pkg3/src/f4.ts"]);
    const repo = shadow("fast");
    const tree = await repo.snapshot(undefined, "first");
    for (let f = 0; f < PRELOAD_MIN_FILES + 50; f++) {
      mkdirSync(ws("added"), { recursive: true });
      writeFileSync(ws(`added/n${f}.ts`), `export const n = ${f};\n`);
    }
    const next = await repo.snapshot(tree, "second");
    const changes = await repo.treeChanges(tree, next);
    expect(changes).toHaveLength(PRELOAD_MIN_FILES + 50);
    expect(changes.every((c) => c.path.startsWith("added/"))).toBe(true);
    // Carried over without stat, the old entries would have size 0 (read again by every status).
    expect((await indexStats(repo)).get("pkg3/src/f4.ts")?.size).toBe(lstatSync(ws("pkg3/src/f4.ts")).size);
  });
});
