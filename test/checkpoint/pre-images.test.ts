// Pre-images for a first snapshot that runs beside tool batches (R-CKPT-4): the snapshot reads
// the files after a call wrote them (the worst case of that race), yet its tree holds what they
// were before; the next snapshot holds them as they are. And which files a pre-image cannot
// keep exactly (the caller then counts the call's writes as unknown).
import { chmodSync, mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PreImages, readPreImage } from "../../src/checkpoint/pre-images.js";
import { ShadowRepo, TOO_BIG_TEXT } from "../../src/checkpoint/shadow-repo.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let repo: ShadowRepo;
const ws = (p: string) => join(dirs.workspace, p);
const show = async (tree: string, path: string) =>
  (await repo.git(["cat-file", "-p", `${tree}:${path}`])).stdout;
const listed = async (tree: string) =>
  (await repo.git(["ls-tree", "-r", "--name-only", "-z", tree])).stdout.split("\0").filter(Boolean);

beforeEach(() => {
  dirs = makeTempDirs();
  repo = new ShadowRepo({ gitDir: join(dirs.home, "shadow"), workTree: dirs.workspace, sessionId: "s1" });
});
afterEach(() => dirs.cleanup());

describe("a first snapshot given pre-images", () => {
  it("holds each file as it was before the call, and the next snapshot as it is", async () => {
    writeFileSync(ws(".gitignore"), "*.log\n");
    writeFileSync(ws("keep.txt"), "untouched\n");
    const before = new PreImages();
    // The batch keeps its pre-images, then writes; only then does the snapshot read the files.
    before.add("a.txt", { kind: "file", bytes: Buffer.from("old\n"), executable: false });
    before.add("run.sh", { kind: "file", bytes: Buffer.from("echo old\n"), executable: true });
    before.add("new/made.txt", { kind: "absent" });
    before.add("debug.log", { kind: "file", bytes: Buffer.from("old log\n"), executable: false });
    // A second batch's pre-image of a.txt is what the first batch wrote: the first one wins.
    before.add("a.txt", { kind: "file", bytes: Buffer.from("first batch\n"), executable: false });
    writeFileSync(ws("a.txt"), "second batch\n");
    writeFileSync(ws("run.sh"), "echo new\n");
    chmodSync(ws("run.sh"), 0o755);
    mkdirSync(ws("new"));
    writeFileSync(ws("new/made.txt"), "made\n");
    writeFileSync(ws("debug.log"), "new log\n");

    const first = await repo.snapshot(undefined, "first", before);
    expect(before.closed).toBe(true);
    // Ignored files stay out, as in any snapshot: a pre-image never adds a path.
    expect((await listed(first)).sort()).toEqual([".gitignore", "a.txt", "keep.txt", "run.sh"]);
    expect(await show(first, "a.txt")).toBe("old\n");
    expect(await show(first, "run.sh")).toBe("echo old\n");
    expect((await repo.git(["ls-tree", first, "run.sh"])).stdout).toMatch(/^100755 /);

    // Once closed, a later batch's pre-image is too late to matter and is not kept.
    before.add("keep.txt", { kind: "absent" });
    const next = await repo.snapshot(first, "next");
    expect((await listed(next)).sort()).toEqual([
      ".gitignore",
      "a.txt",
      "keep.txt",
      "new/made.txt",
      "run.sh",
    ]);
    expect(await show(next, "a.txt")).toBe("second batch\n");
    expect(await show(next, "run.sh")).toBe("echo new\n");
    expect(await show(next, "keep.txt")).toBe("untouched\n");
  });

  it("a file a call made big holds its small pre-image, then the placeholder", async () => {
    writeFileSync(ws("data.bin"), "");
    truncateSync(ws("data.bin"), 11 * 1024 * 1024);
    const before = new PreImages();
    before.add("data.bin", { kind: "file", bytes: Buffer.from("small\n"), executable: false });
    const first = await repo.snapshot(undefined, "first", before);
    expect(await show(first, "data.bin")).toBe("small\n");
    const next = await repo.snapshot(first, "next");
    expect(await show(next, "data.bin")).toBe(TOO_BIG_TEXT);
  });
});

describe("readPreImage", () => {
  it("keeps a regular file's bytes and mode, and a missing file as absent", async () => {
    writeFileSync(ws("a.txt"), "a\n");
    writeFileSync(ws("run.sh"), "echo\n", { mode: 0o755 });
    expect(await readPreImage(dirs.workspace, ws("a.txt"))).toEqual({
      path: "a.txt",
      image: { kind: "file", bytes: Buffer.from("a\n"), executable: false },
    });
    expect(await readPreImage(dirs.workspace, ws("run.sh"))).toMatchObject({ image: { executable: true } });
    expect(await readPreImage(dirs.workspace, ws("deep/er/new.ts"))).toEqual({
      path: "deep/er/new.ts",
      image: { kind: "absent" },
    });
  });

  it("names the file really written when the path goes through a linked folder", async () => {
    mkdirSync(ws("real"));
    writeFileSync(ws("real/x.ts"), "x\n");
    symlinkSync(ws("real"), ws("link"));
    expect(await readPreImage(dirs.workspace, ws("link/x.ts"))).toMatchObject({ path: "real/x.ts" });
    // A folder linked out of the workspace: no snapshot holds what is written there.
    symlinkSync(dirs.home, ws("away"));
    expect(await readPreImage(dirs.workspace, ws("away/y.ts"))).toBe("outside");
    expect(await readPreImage(dirs.workspace, join(dirs.home, "z.ts"))).toBe("outside");
  });

  it("refuses what it cannot keep exactly: a link, a big file, an ignore file, a new file in an empty folder", async () => {
    writeFileSync(ws("a.txt"), "a\n");
    symlinkSync(ws("a.txt"), ws("to-a"));
    writeFileSync(ws("sparse.bin"), "");
    truncateSync(ws("sparse.bin"), 4 * 1024 * 1024 * 1024);
    writeFileSync(ws(".gitignore"), "*.log\n");
    mkdirSync(ws("empty"));
    for (const path of ["to-a", "sparse.bin", ".gitignore", "sub/.gitignore", "empty/new.ts"])
      expect(await readPreImage(dirs.workspace, ws(path)), path).toBeUndefined();
  });
});
