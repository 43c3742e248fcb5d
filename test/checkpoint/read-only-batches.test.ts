// R-BIG-1 (amended): on a later turn a batch of tools that never write (grep, glob, read_file)
// takes no snapshot and waits for none, so a search costs what the search costs; the turn's
// "before" snapshot is owed to its first writing batch. A real session (fake provider, real
// tools, real git): the snapshot is made slow on purpose, so a read-only batch that waited for it
// would be seen waiting, and undo of a turn that read, then wrote, is still exact.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { useHarness } from "../engine/harness.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";

const h = useHarness();

afterEach(() => {
  vi.restoreAllMocks();
});

const checkpoints = (lines: readonly { type: string }[]) => lines.filter((l) => l.type === "checkpoint");

describe("read-only batches on a later turn", () => {
  it("take no snapshot and wait for none; the turn's first writing batch takes its before-snapshot", async () => {
    writeFileSync(join(h.dirs.workspace, "a.txt"), "one\n");
    const t = await h.start({ checkpoints: true });
    h.provider.enqueue(
      openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "b.txt", content: "b\n" } }]),
      openaiText("done"),
    );
    await t.prompt("turn 1 writes");
    expect(checkpoints(t.session.transcript()).length).toBe(2);

    // From here on every snapshot is counted: a read-only turn starts none.
    const snapshot = vi.spyOn(ShadowRepo.prototype, "snapshot");
    h.provider.enqueue(
      openaiToolCalls([
        { id: "g1", name: "grep", args: { pattern: "one" } },
        { id: "r1", name: "read_file", args: { path: "a.txt" } },
      ]),
      openaiToolCalls([{ id: "g2", name: "glob", args: { pattern: "*.txt" } }]),
      openaiText("found"),
    );
    await t.prompt("turn 2 only reads");
    expect(snapshot).not.toHaveBeenCalled();
    expect(checkpoints(t.session.transcript()).length).toBe(2);

    // Turn 3 reads first, then edits: the before-snapshot is taken at the edit, before it runs.
    h.provider.enqueue(
      openaiToolCalls([{ id: "r2", name: "read_file", args: { path: "a.txt" } }]),
      openaiToolCalls([
        { id: "e1", name: "edit_file", args: { path: "a.txt", old_string: "one", new_string: "two" } },
      ]),
      openaiText("edited"),
    );
    await t.prompt("turn 3 reads, then edits");
    const turn3 = checkpoints(t.session.transcript()).filter((l) => "turn" in l && l.turn === 3);
    expect(turn3.map((l) => "round" in l && l.round)).toEqual([0, 2]);
    expect(readFileSync(join(h.dirs.workspace, "a.txt"), "utf8")).toBe("two\n");
    const report = await t.session.send({ type: "undo", turns: 1 });
    expect(report.restored.map((r) => r.path)).toEqual(["a.txt"]);
    expect(readFileSync(join(h.dirs.workspace, "a.txt"), "utf8")).toBe("one\n");
  });

  it("a read-only batch does not wait for a snapshot still running from the round before", async () => {
    writeFileSync(join(h.dirs.workspace, "a.txt"), "one\n");
    const t = await h.start({ checkpoints: true });
    h.provider.enqueue(
      openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "b.txt", content: "b\n" } }]),
      openaiText("done"),
    );
    await t.prompt("turn 1 writes");
    // The snapshot after turn 2's bash is held until the grep after it has its result.
    const original = ShadowRepo.prototype.snapshot;
    const grepDone = () => t.session.transcript().some((l) => l.type === "tool_result" && l.id === "g1");
    let calls = 0;
    vi.spyOn(ShadowRepo.prototype, "snapshot").mockImplementation(async function (this: ShadowRepo, ...args) {
      calls++;
      if (calls === 2) await vi.waitFor(() => expect(grepDone()).toBe(true), { timeout: 5000, interval: 5 });
      return original.apply(this, args);
    });
    h.provider.enqueue(
      openaiToolCalls([{ id: "b1", name: "bash", args: { command: "echo more >> a.txt" } }]),
      openaiToolCalls([{ id: "g1", name: "grep", args: { pattern: "more" } }]),
      openaiText("found"),
    );
    const outcome = await t.prompt("turn 2: bash, then grep");
    expect(outcome.stopReason).toBe("completed");
    // Round 0 before the bash, round 1 after it (finished only after the grep), none after the grep.
    const turn2 = checkpoints(t.session.transcript()).filter((l) => "turn" in l && l.turn === 2);
    expect(turn2.map((l) => "round" in l && l.round)).toEqual([0, 1]);
    const report = await t.session.send({ type: "undo", turns: 1 });
    expect(report.restored.map((r) => r.path)).toEqual(["a.txt"]);
    expect(readFileSync(join(h.dirs.workspace, "a.txt"), "utf8")).toBe("one\n");
  });
});
