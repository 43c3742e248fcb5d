// R-CKPT-2, R-CKPT-3, R-BIG-1 (amended): undo and diff of a turn whose snapshots were taken
// without git (the change watch vouched for the paths a bash round wrote, made or removed;
// watched-snapshot.ts) are exact, in a real session (fake provider, real bash, real git) of a
// workspace that is no git repository; and in one holding a nested repository, where the watch
// is off and every snapshot goes the `git status` way, they are exact as well.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { WatchedSnapshots } from "../../src/checkpoint/watched-snapshot.js";
import { useHarness } from "../engine/harness.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";

const h = useHarness();
const ws = (p: string) => join(h.dirs.workspace, p);

afterEach(() => {
  vi.restoreAllMocks();
});

/** Over the 300 entries a workspace is read in-process for: its later snapshots use the watch. */
function bigWorkspace(): void {
  for (let d = 0; d < 6; d++) {
    mkdirSync(ws(`pkg${d}`), { recursive: true });
    for (let f = 0; f < 60; f++) writeFileSync(ws(`pkg${d}/f${f}.ts`), `export const v = ${f};\n`);
  }
  writeFileSync(ws(".gitignore"), "*.log\n");
}

/** Counts the snapshots that ran without git (a tree) and those that went the git way (undefined). */
function countWays() {
  const ways = { withoutGit: 0, git: 0 };
  const take = WatchedSnapshots.prototype.take;
  vi.spyOn(WatchedSnapshots.prototype, "take").mockImplementation(async function (
    this: WatchedSnapshots,
    ...args
  ) {
    const tree = await take.apply(this, args);
    ways[tree ? "withoutGit" : "git"]++;
    return tree;
  });
  return ways;
}

const bash = (id: string, command: string) => openaiToolCalls([{ id, name: "bash", args: { command } }]);

/**
 * Turn 1 brings the watch up (started by its round 1 snapshot; round 2's first take compares
 * everything; round 3 runs without git); turn 2 is the one undone.
 */
async function twoTurns(turn2: string) {
  const t = await h.start({ checkpoints: true });
  h.provider.enqueue(
    bash("b1", "sleep 0.5; echo one >> pkg1/f1.ts"),
    bash("b2", "echo two >> pkg1/f2.ts"),
    bash("b2b", "echo three >> pkg1/f3.ts"),
    openaiText("turn 1 done"),
  );
  expect((await t.prompt("turn 1")).stopReason).toBe("completed");
  h.provider.enqueue(bash("b3", turn2), openaiText("turn 2 done"));
  expect((await t.prompt("turn 2")).stopReason).toBe("completed");
  const results = t.session.transcript().filter((l) => l.type === "tool_result");
  expect(results.map((l) => l.type === "tool_result" && l.outcome)).toEqual(["ok", "ok", "ok", "ok"]);
  return t;
}

const TURN_2 = [
  "echo edited >> pkg2/f3.ts",
  "echo new > pkg2/new.ts",
  "rm pkg3/f4.ts",
  "chmod +x pkg4/f5.ts",
  "echo log > pkg2/debug.log",
].join("; ");

describe("undo of a turn snapshotted without git", () => {
  it("restores exactly what a bash round wrote, made and removed; the ignored file stays", async () => {
    bigWorkspace();
    const ways = countWays();
    const t = await twoTurns(TURN_2);
    // Turn 1's third round and turn 2's round: no git on the waiting path.
    expect(ways.withoutGit).toBeGreaterThanOrEqual(2);
    const diff = await t.session.diff({ turn: 2, color: false });
    expect(diff).toContain("+edited");
    expect(diff).toContain("diff --git a/pkg2/new.ts b/pkg2/new.ts");
    expect(diff).toContain("deleted file mode 100644");
    expect(diff).toContain("new mode 100755");
    expect(diff).not.toContain("debug.log");
    const report = await t.session.send({ type: "undo", turns: 1 });
    expect(report.restored.map((r) => `${r.action} ${r.path}`).sort()).toEqual([
      "changed pkg2/f3.ts",
      "changed pkg4/f5.ts",
      "created pkg3/f4.ts",
      "deleted pkg2/new.ts",
    ]);
    expect(readFileSync(ws("pkg2/f3.ts"), "utf8")).toBe("export const v = 3;\n");
    expect(readFileSync(ws("pkg3/f4.ts"), "utf8")).toBe("export const v = 4;\n");
    expect(existsSync(ws("pkg2/new.ts"))).toBe(false);
    expect(execFileSync("stat", ["-c", "%a", ws("pkg4/f5.ts")], { encoding: "utf8" }).trim()).toBe("644");
    expect(readFileSync(ws("pkg2/debug.log"), "utf8")).toBe("log\n");
    // Turn 1's writes stay (only turn 2 was undone).
    expect(readFileSync(ws("pkg1/f2.ts"), "utf8")).toBe("export const v = 2;\ntwo\n");
    // After the undo (which wrote the index) the next turn's snapshots are exact again.
    h.provider.enqueue(
      bash("b4", "echo after >> pkg5/f1.ts"),
      bash("b5", "rm pkg5/f2.ts"),
      openaiText("turn 3"),
    );
    expect((await t.prompt("turn 3")).stopReason).toBe("completed");
    const third = await t.session.diff({ turn: 3, color: false });
    expect([...third.matchAll(/^diff --git a\/(\S+)/gm)].map((m) => m[1])).toEqual([
      "pkg5/f1.ts",
      "pkg5/f2.ts",
    ]);
    const again = await t.session.send({ type: "undo", turns: 1 });
    expect(again.restored.map((r) => `${r.action} ${r.path}`).sort()).toEqual([
      "changed pkg5/f1.ts",
      "created pkg5/f2.ts",
    ]);
    expect(readFileSync(ws("pkg5/f1.ts"), "utf8")).toBe("export const v = 1;\n");
  });

  it("in a workspace holding a nested repository every snapshot goes the git way, and undo is exact", async () => {
    bigWorkspace();
    mkdirSync(ws("vendor/lib"), { recursive: true });
    execFileSync("git", ["init", "-q"], { cwd: ws("vendor/lib") });
    writeFileSync(ws("vendor/lib/lib.ts"), "lib\n");
    const ways = countWays();
    const t = await twoTurns(`${TURN_2}; echo changed > vendor/lib/lib.ts`);
    expect(ways.withoutGit).toBe(0);
    const report = await t.session.send({ type: "undo", turns: 1 });
    expect(report.restored.map((r) => `${r.action} ${r.path}`).sort()).toEqual([
      "changed pkg2/f3.ts",
      "changed pkg4/f5.ts",
      "changed vendor/lib/lib.ts",
      "created pkg3/f4.ts",
      "deleted pkg2/new.ts",
    ]);
    expect(readFileSync(ws("vendor/lib/lib.ts"), "utf8")).toBe("lib\n");
    expect(readFileSync(ws("pkg2/f3.ts"), "utf8")).toBe("export const v = 3;\n");
    expect(existsSync(ws("pkg2/new.ts"))).toBe(false);
  });
});
