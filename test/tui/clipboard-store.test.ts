// Where Ctrl+V's images are kept (R-UI-21): numbers go on across a workspace's sessions so a name
// from history finds one file, any session's image is found by name, and the folders are bounded
// and go with their sessions.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ClipboardStore } from "../../src/tui/clipboard-store.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs("tern-clip-store-");
});
afterEach(() => dirs.cleanup());

const settle = () => new Promise((r) => setTimeout(r, 20));

describe("the clipboard image store", () => {
  it("numbers on across sessions, finds any session's image, removes a gone session's folder", async () => {
    let session = "s1";
    let live = ["s1"];
    const store = new ClipboardStore({
      home: dirs.home,
      cwd: dirs.workspace,
      session: () => session,
      sessions: async () => live,
    });
    expect(store.nextNumber()).toBe(1);
    store.save("clipboard-1.png", Buffer.from("one"));
    session = "s2";
    live = ["s1", "s2"];
    expect(store.nextNumber()).toBe(2);
    store.save("clipboard-2.png", Buffer.from("two"));
    await settle();
    expect(store.load("clipboard-1.png")?.toString()).toBe("one");
    expect(store.load("clipboard-2.png")?.toString()).toBe("two");
    // A name is never a path.
    expect(store.load("../clipboard-1.png")).toBeUndefined();
    // s1's record is gone: its images go at the next paste.
    live = ["s2"];
    store.save("clipboard-3.png", Buffer.from("three"));
    await settle();
    expect(store.load("clipboard-1.png")).toBeUndefined();
    const [workspace] = readdirSync(join(dirs.home, "clipboard"));
    expect(existsSync(join(dirs.home, "clipboard", workspace, "s1"))).toBe(false);
  });

  it("keeps a session's newest 50 images", async () => {
    const store = new ClipboardStore({
      home: dirs.home,
      cwd: dirs.workspace,
      session: () => "s1",
      sessions: async () => ["s1"],
    });
    for (let n = 1; n <= 52; n++) store.save(`clipboard-${n}.png`, Buffer.from(String(n)));
    await settle();
    expect(store.load("clipboard-2.png")).toBeUndefined();
    expect(store.load("clipboard-3.png")?.toString()).toBe("3");
    expect(store.nextNumber()).toBe(53);
  });
});
