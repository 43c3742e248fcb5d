// R-BIG-3: `@file` completion on a big workspace: the list is built in the background (the UI
// reads whatever list is there), fuzzy matching on path segments, no limit at 20,000 files, and
// typing on narrows the last answer to the same result a fresh scan gives.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFileIndex } from "../../src/workspace/workspace-files.js";
import { fileMenu } from "../../src/tui/completion.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

const bigList = (): string[] => {
  const files: string[] = [];
  for (let p = 0; p < 200; p++)
    for (let f = 0; f < 500; f++)
      files.push(`packages/pkg${String(p).padStart(4, "0")}/src/mod${f % 10}/file${p * 500 + f}.ts`);
  return files;
};

const labels = (text: string, files: readonly string[]) =>
  fileMenu(text, text.length, files)?.items.map((i) => i.label) ?? [];

let dirs: TempDirs | undefined;
afterEach(() => dirs?.cleanup());

describe("@file completion on a big workspace", () => {
  it("offers matches from a 100,000-file list: names first, then fuzzy on segments", () => {
    const files = bigList();
    expect(labels("@file2716", files)[0]).toBe("@packages/pkg0005/src/mod6/file2716.ts");
    // Each part is a subsequence of one segment, in order.
    const fuzzy = labels("@pk5/m6/f2716", files);
    expect(fuzzy).toContain("@packages/pkg0005/src/mod6/file2716.ts");
    expect(labels("@zzz/qqq", files)).toEqual([]);
  });

  it("keeps the 50 best of 100,000 matches in the order a full sort gives: rank, then length, then path", () => {
    const files = [...bigList(), "file1.ts", "docs/file1-notes.md", "src/profile1.ts"];
    const q = "file1";
    const rank = (p: string) => (p.slice(p.lastIndexOf("/") + 1).startsWith(q) ? 0 : p.startsWith(q) ? 1 : 2);
    const expected = files
      .filter((p) => p.includes(q))
      .sort((a, b) => rank(a) - rank(b) || a.length - b.length || (a < b ? -1 : 1))
      .slice(0, 50)
      .map((p) => `@${p}`);
    expect(labels(`@${q}`, files)).toEqual(expected);
    expect(expected[0]).toBe("@file1.ts");
  });

  it("typing on narrows the last answer to what a fresh scan finds", () => {
    const files = bigList();
    const typed = ["@f", "@fi", "@fil", "@file2", "@file27", "@file271"].map((t) => labels(t, files));
    // A fresh list object makes every query scan the whole list.
    const fresh = ["@f", "@fi", "@fil", "@file2", "@file27", "@file271"].map((t) => labels(t, [...files]));
    expect(typed).toEqual(fresh);
    expect(typed.at(-1)?.length).toBeGreaterThan(0);
  });

  it("lists the workspace in the background with the tools' ignore rules, and again on refresh", async () => {
    dirs = makeTempDirs();
    mkdirSync(join(dirs.workspace, "src"), { recursive: true });
    writeFileSync(join(dirs.workspace, ".gitignore"), "build/\n");
    writeFileSync(join(dirs.workspace, "src/a.ts"), "");
    mkdirSync(join(dirs.workspace, "build"));
    writeFileSync(join(dirs.workspace, "build/out.js"), "");
    let updates = 0;
    const index = new WorkspaceFileIndex(dirs.workspace, () => updates++);
    expect(index.current()).toBeUndefined();
    index.refresh();
    // Nothing waits for the listing: there is no list until it lands.
    expect(index.current()).toBeUndefined();
    await index.settled();
    expect(index.current()).toEqual([".gitignore", "src/a.ts"]);
    writeFileSync(join(dirs.workspace, "src/b.ts"), "");
    index.refresh();
    index.refresh(); // coalesced into one more listing
    await index.settled();
    expect(index.current()).toEqual([".gitignore", "src/a.ts", "src/b.ts"]);
    expect(updates).toBeGreaterThanOrEqual(2);
  });
});
