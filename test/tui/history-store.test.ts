// The per-workspace prompt history file under TERN_HOME: kept across instances, one file per
// workspace, trimmed to the newest entries when it grows, a torn last line costing one entry.
import { appendFileSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { History } from "../../src/tui/composer.js";
import { HistoryStore } from "../../src/tui/history-store.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs | undefined;
afterEach(() => dirs?.cleanup());

function open(home: string, cwd: string): History {
  const store = new HistoryStore(home, cwd);
  return new History(store.load(), (text) => store.add(text));
}

describe("HistoryStore", () => {
  it("keeps entries per workspace across instances and trims the file to the newest", () => {
    dirs = makeTempDirs("tern-history-");
    const a = open(dirs.home, "/work/a");
    a.add("first");
    a.add("second");
    open(dirs.home, "/work/b").add("other workspace");
    const again = open(dirs.home, "/work/a");
    expect(again.step(-1, "")).toBe("second");
    expect(again.step(-1, "")).toBe("first");
    expect(again.step(-1, "")).toBeUndefined();
    expect(readdirSync(join(dirs.home, "history"))).toHaveLength(2);

    const many = open(dirs.home, "/work/c");
    for (let i = 0; i < 2100; i++) many.add(`prompt ${i}`);
    const file = join(
      dirs.home,
      "history",
      readdirSync(join(dirs.home, "history")).find((f) => {
        return readFileSync(join(dirs!.home, "history", f), "utf8").includes("prompt 2099");
      })!,
    );
    const lines = readFileSync(file, "utf8").trim().split("\n");
    expect(lines.length).toBeLessThanOrEqual(2000);
    expect(JSON.parse(lines.at(-1)!)).toBe("prompt 2099");
    // A torn last line (a crash mid-append) costs only that line.
    appendFileSync(file, '"unfinished');
    const reloaded = open(dirs.home, "/work/c");
    expect(reloaded.step(-1, "")).toBe("prompt 2099");
  });
});
