// The change watch (src/checkpoint/change-watch.ts) on a real folder through inotify: what a take
// reports after a file's write and mode change (no folder came or went), after a folder's
// attribute change (its subtree still watched), and after a folder is made.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChangeWatch } from "../../src/checkpoint/change-watch.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let watch: ChangeWatch;
const ws = (...p: string[]) => join(dirs.workspace, ...p);

beforeEach(() => {
  dirs = makeTempDirs();
  mkdirSync(ws("a", "b"), { recursive: true });
  writeFileSync(ws("a", "b", "f.txt"), "one\n");
  watch = new ChangeWatch(dirs.workspace, dirs.home);
});
afterEach(() => {
  watch.stop();
  dirs.cleanup();
});

describe.runIf(process.platform === "linux")("the change watch", () => {
  it("sees writes below a folder whose attributes changed, and a folder made afterwards", async () => {
    expect(await watch.start()).toBe(true);
    // The first take cannot vouch (what changed before the watch began is unknown).
    expect(await watch.take()).toBeUndefined();
    expect(await watch.take()).toEqual({ paths: [], appeared: false });
    chmodSync(ws("a"), 0o700);
    // libuv reports a folder's attribute change as "rename" (the event carries IN_ISDIR).
    expect(await watch.take()).toMatchObject({ paths: ["a"] });
    writeFileSync(ws("a", "b", "f.txt"), "two\n");
    expect(await watch.take()).toEqual({ paths: ["a/b/f.txt"], appeared: false });
    chmodSync(ws("a", "b", "f.txt"), 0o600);
    expect(await watch.take()).toEqual({ paths: ["a/b/f.txt"], appeared: false });
    mkdirSync(ws("a", "c"));
    expect(await watch.take()).toEqual({ paths: ["a/c"], appeared: true });
    writeFileSync(ws("a", "c", "g.txt"), "new\n");
    expect(await watch.take()).toEqual({ paths: ["a/c/g.txt"], appeared: true });
  });
});
