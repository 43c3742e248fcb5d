// R-BIG-3: the `@file` menu never holds a keystroke. A key needing a big scan lands first and
// its matches come after, found in slices (the same answer a whole scan and a plain full sort
// give); a newer key cancels a stale search; a small scan answers with the key; Tab right after
// typing takes this text's matches; and a workspace too big to list says so once.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { listedFiles } from "../../src/workspace/workspace-files.js";
import { ComposerInput } from "../../src/tui/composer-input.js";
import { FileScan } from "../../src/tui/file-match.js";
import { FileMenuSearch } from "../../src/tui/file-menu-search.js";
import { Store } from "../../src/tui/store.js";
import { initialState } from "../../src/tui/ui-state.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

const bigList = (): string[] => {
  const files: string[] = [];
  for (let p = 0; p < 60; p++)
    for (let f = 0; f < 120; f++)
      files.push(`packages/Pkg${String(p).padStart(4, "0")}/src/mod${f % 10}/file${p * 120 + f}.ts`);
  files.push("README.md", "src/file17.ts", "docs/guide/file-17-notes.md");
  return files;
};

/** The matcher as first written: split segments, every match ranked, a full sort. */
function reference(files: readonly string[], typed: string): string[] {
  const q = typed.toLowerCase();
  const parts = q.split("/").filter((p) => p !== "");
  const sub = (s: string, t: string) => {
    let at = 0;
    for (const ch of t) {
      at = s.indexOf(ch, at);
      if (at < 0) return false;
      at++;
    }
    return true;
  };
  const fuzzy = (segments: string[]) => {
    let s = 0;
    for (const part of parts) {
      while (s < segments.length && !sub(segments[s], part)) s++;
      if (s++ === segments.length) return false;
    }
    return true;
  };
  const rank = (path: string) => {
    const lower = path.toLowerCase();
    if (lower.slice(lower.lastIndexOf("/") + 1).startsWith(q)) return 0;
    if (lower.startsWith(q)) return 1;
    if (lower.includes(q)) return 2;
    return fuzzy(lower.split("/")) ? 3 : -1;
  };
  return files
    .map((path) => ({ path, rank: rank(path) }))
    .filter((r) => r.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.path.length - b.path.length || (a.path < b.path ? -1 : 1))
    .slice(0, 50)
    .map((r) => r.path);
}

let dirs: TempDirs | undefined;
afterEach(() => dirs?.cleanup());

/** Lets the slices run (each is a setImmediate). */
const settle = async () => {
  for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
};

/** Waits (polling) until `ready` holds: the background listing runs ripgrep or the walk. */
async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ready(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(ready()).toBe(true);
}

function composer(workspace: string, home: string, listFiles?: (cwd: string) => Promise<string[]>) {
  const store = new Store(initialState({ model: "local/m", sessionId: "s1", contextWindow: 1000 }));
  const printed: string[] = [];
  const input = new ComposerInput({
    store,
    home,
    cwd: workspace,
    print: (_kind, text) => printed.push(text),
    takeBackFollowUp: () => undefined,
    imageInput: () => ({ limit: 0, accepted: false, modelId: "local/m" }),
    listFiles,
  });
  const type = (text: string) => input.set({ text, cursor: text.length });
  return { store, input, printed, type, labels: () => store.get().menu?.items.map((i) => i.label) ?? [] };
}

describe("@file matching in slices", () => {
  it("gives what a whole scan and a full sort give, slice by slice, while typing on and after backing up", () => {
    const files = bigList();
    const queries = [
      "",
      "f",
      "fi",
      "file17",
      "pk5/m6/f16",
      "pkg0005/",
      "src/mod3",
      "PKG0099/FILE",
      "/",
      "p1/m3/f",
      "zz",
    ];
    for (const typed of [...queries, "f", "file1", "file17"]) {
      const scan = new FileScan(files, typed);
      let slices = 1;
      while (!scan.step(0)) slices++;
      expect(scan.paths(), typed).toEqual(reference(files, typed));
      // 7,200 paths in slices of 4,096: the scan did yield between them.
      if (typed === "f") expect(slices).toBeGreaterThan(1);
    }
  });
});

describe("@file search off the keystroke's path", () => {
  it("matches a big list after the key, in slices; a newer key drops the stale search; finish() answers at once", async () => {
    const files = bigList();
    const shown: string[] = [];
    // No time before the key is drawn: one chunk of 4,096 paths, then the clock.
    const search = new FileMenuSearch((menu, text) => shown.push(`${text} → ${menu?.items[0]?.label}`), 0);
    search.start("see @f", 6, files);
    // Nothing yet: the key is drawn first.
    expect(shown).toEqual([]);
    expect(search.pending).toBe(true);
    await settle();
    expect(shown).toEqual([`see @f → @${reference(files, "f")[0]}`]);
    // Two keys before any slice ran: only the second one's menu comes.
    search.start("see @x", 6, files);
    search.start("see @fi", 7, files);
    await settle();
    expect(shown.slice(1)).toEqual([`see @fi → @${reference(files, "fi")[0]}`]);
    // Typing on narrows to fewer paths than a chunk: then the menu comes with the key itself.
    search.start("see @file27", 11, files);
    await settle();
    search.start("see @file271", 12, files);
    await settle();
    search.start("see @file2716", 13, files);
    expect(shown.at(-1)).toBe("see @file2716 → @packages/Pkg0022/src/mod6/file2716.ts");
    expect(shown).toHaveLength(5);
    // Backing up to a big scan, then Tab: finish() gives this text's menu now.
    search.start("see @s", 6, files);
    expect(search.pending).toBe(true);
    search.finish();
    expect(search.pending).toBe(false);
    expect(shown.at(-1)).toBe(`see @s → @${reference(files, "s")[0]}`);
  });
});

describe("@file menu in the composer", () => {
  it("shows a small workspace's matches with the key; Tab takes them", async () => {
    dirs = makeTempDirs();
    mkdirSync(join(dirs.workspace, "src"), { recursive: true });
    for (const name of ["alpha.ts", "alpine.ts", "beta.ts"])
      writeFileSync(join(dirs.workspace, "src", name), "");
    const c = composer(dirs.workspace, dirs.home);
    c.type("see @al");
    expect(c.store.get().composer).toBe("see @al");
    // The index lists in the background from the start; its list lands and the menu follows.
    await until(() => c.labels().length > 0);
    expect(c.labels()).toEqual(["@src/alpha.ts", "@src/alpine.ts"]);
    c.type("see @alph");
    expect(c.labels()).toEqual(["@src/alpha.ts"]);
    c.type("see @be");
    expect(c.input.menuFor({ tab: true } as Parameters<ComposerInput["menuFor"]>[0])?.items[0].label).toBe(
      "@src/beta.ts",
    );
    c.input.acceptMenu();
    expect(c.store.get().composer).toBe("see @src/beta.ts ");
  });

  it("says once why there is no menu when the workspace is over the listing cap", async () => {
    dirs = makeTempDirs();
    for (const name of ["a.ts", "b.ts", "c.ts"]) writeFileSync(join(dirs.workspace, name), "");
    const c = composer(dirs.workspace, dirs.home, (cwd) => listedFiles(cwd, 2));
    c.type("@");
    await until(() => c.printed.length > 0);
    c.type("@a");
    c.type("@ab");
    await settle();
    expect(c.store.get().menu).toBeNull();
    expect(c.printed).toEqual(["notice: no @file menu here: the workspace has more than 2 files"]);
  });
});
