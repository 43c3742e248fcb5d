// R-CKPT-4: the first snapshot of a big workspace never delays a turn. A real session (fake
// provider, real tools, real git) in a workspace over the background bound (lowered here from
// 20,000 to 1,000 files, so the tree stays small): the request after the turn's first tool batch
// is sent while that first snapshot is still running, and the turn's end still names it. The
// files edit_file, write_file and edit_lineno write beside it have their pre-images handed to it,
// so undo restores them exactly; a bash call (whose writes are unknown) waits for that snapshot, so
// undo of its turn is exact too (R-BIG-4; once it ran beside it and that snapshot could hold the
// call's own changes: undo reported "no files needed restoring" for a turn that had edited a file).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ShadowRepo } from "../../src/checkpoint/shadow-repo.js";
import { useHarness } from "../engine/harness.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";

const h = useHarness();

/** A session in a 1,500-file workspace whose first snapshot goes on in the background (over 1,000). */
async function bigSession() {
  for (let d = 0; d < 15; d++) {
    mkdirSync(join(h.dirs.workspace, `pkg${d}`), { recursive: true });
    for (let f = 0; f < 100; f++)
      writeFileSync(join(h.dirs.workspace, `pkg${d}`, `f${f}.ts`), `export const v = ${f};\n`);
  }
  return h.start({ checkpoints: true, backgroundFirstFiles: 1000 });
}

/**
 * The first snapshot starts only once the calls with these ids have results: it then reads every
 * file after they wrote (the worst case of the race, made certain instead of likely).
 */
function holdFirstSnapshotUntil(t: Awaited<ReturnType<typeof bigSession>>, ids: string[]) {
  const original = ShadowRepo.prototype.snapshot;
  const done = () =>
    ids.every((id) => t.session.transcript().some((l) => l.type === "tool_result" && l.id === id));
  let first = true;
  vi.spyOn(ShadowRepo.prototype, "snapshot").mockImplementation(async function (this: ShadowRepo, ...args) {
    if (first) {
      first = false;
      await vi.waitFor(() => expect(done()).toBe(true), { timeout: 5000, interval: 5 });
    }
    return original.apply(this, args);
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the first snapshot of a big workspace", () => {
  it("runs beside the turn: the next request is sent before it completes; a new file is undone", async () => {
    const t = await bigSession();
    const snapshotted = () => t.session.transcript().some((line) => line.type === "checkpoint");
    const seenAtRequest: boolean[] = [];
    h.provider.setResponder(() => {
      seenAtRequest.push(snapshotted());
      return undefined;
    });
    // The snapshot is held until the second request arrives, so a fast machine cannot finish it
    // first; were that request to wait for the snapshot, the hold would time out and fail the turn.
    const original = ShadowRepo.prototype.snapshot;
    let first = true;
    vi.spyOn(ShadowRepo.prototype, "snapshot").mockImplementation(async function (this: ShadowRepo, ...args) {
      if (first) {
        first = false;
        await vi.waitFor(() => expect(seenAtRequest.length).toBeGreaterThanOrEqual(2), {
          timeout: 5000,
          interval: 5,
        });
      }
      return original.apply(this, args);
    });
    h.provider.enqueue(
      openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "pkg0/new.ts", content: "x\n" } }]),
      openaiText("done"),
    );
    const outcome = await t.prompt("add a file");
    expect(outcome.stopReason).toBe("completed");
    // Request 1 before any tool; request 2 right after the batch, the first snapshot still going.
    expect(seenAtRequest).toEqual([false, false]);
    const lines = t.session.transcript();
    const checkpoints = lines.filter((line) => line.type === "checkpoint");
    // The before-snapshot (round 0) and the one after the write (round 1), both before turn_end.
    expect(checkpoints.map((c) => c.type === "checkpoint" && c.round)).toEqual([0, 1]);
    expect(lines.findIndex((line) => line.type === "turn_end")).toBeGreaterThan(
      lines.lastIndexOf(checkpoints[1]),
    );
    // The write ran beside it with its pre-image ("absent") handed over: undo takes it back.
    expect(checkpoints[0]).not.toHaveProperty("duringTools");
    const report = await t.session.send({ type: "undo", turns: 1 });
    expect(report.restored.map((r) => r.path)).toEqual(["pkg0/new.ts"]);
    expect(existsSync(join(h.dirs.workspace, "pkg0/new.ts"))).toBe(false);
  });

  it("an edit and a new file written before it reads them: undo restores both exactly, no --force", async () => {
    const t = await bigSession();
    holdFirstSnapshotUntil(t, ["e1", "w1", "l1"]);
    writeFileSync(join(h.dirs.workspace, "pkg3/run.sh"), "#!/bin/sh\necho 3\n", { mode: 0o755 });
    h.provider.enqueue(
      openaiToolCalls([
        { id: "r1", name: "read_file", args: { path: "pkg1/f1.ts" } },
        { id: "r2", name: "read_file", args: { path: "pkg3/run.sh" } },
      ]),
      openaiToolCalls([
        {
          id: "e1",
          name: "edit_file",
          args: { path: "pkg1/f1.ts", old_string: "v = 1;", new_string: "v = 100;" },
        },
        { id: "w1", name: "write_file", args: { path: "pkg2/made/new.ts", content: "new\n" } },
        {
          id: "l1",
          name: "edit_lineno",
          args: { path: "pkg3/run.sh", start_line: 2, end_line: 2, new_text: "echo 4" },
        },
      ]),
      openaiText("done"),
    );
    const outcome = await t.prompt("edit one file, add another");
    expect(outcome.stopReason).toBe("completed");
    const results = t.session.transcript().filter((l) => l.type === "tool_result");
    expect(results.map((l) => l.type === "tool_result" && l.outcome)).toEqual(["ok", "ok", "ok", "ok", "ok"]);
    expect(readFileSync(join(h.dirs.workspace, "pkg1/f1.ts"), "utf8")).toBe("export const v = 100;\n");
    const first = t.session.transcript().find((line) => line.type === "checkpoint");
    expect(first).toMatchObject({ round: 0 });
    expect(first).not.toHaveProperty("duringTools");
    const report = await t.session.send({ type: "undo", turns: 1 });
    expect(report.restored.map((r) => r.path).sort()).toEqual([
      "pkg1/f1.ts",
      "pkg2/made/",
      "pkg2/made/new.ts",
      "pkg3/run.sh",
    ]);
    expect(readFileSync(join(h.dirs.workspace, "pkg1/f1.ts"), "utf8")).toBe("export const v = 1;\n");
    expect(readFileSync(join(h.dirs.workspace, "pkg3/run.sh"), "utf8")).toBe("#!/bin/sh\necho 3\n");
    expect(existsSync(join(h.dirs.workspace, "pkg2/made/new.ts"))).toBe(false);
    expect(existsSync(join(h.dirs.workspace, "pkg2/made"))).toBe(false);
  });

  it("a bash call beside it waits for it: undo restores exactly, no --force", async () => {
    const t = await bigSession();
    // The first snapshot is slowed and leaves a mark outside the workspace once done: a bash call
    // let run beside it would run first (and write before it reads).
    const done = join(h.dirs.root, "first-snapshot-done");
    const original = ShadowRepo.prototype.snapshot;
    let first = true;
    vi.spyOn(ShadowRepo.prototype, "snapshot").mockImplementation(async function (this: ShadowRepo, ...args) {
      if (!first) return original.apply(this, args);
      first = false;
      await new Promise((resolve) => setTimeout(resolve, 300));
      const tree = await original.apply(this, args);
      writeFileSync(done, "");
      return tree;
    });
    const command = `test -e ${done} && echo after || echo before; echo changed > pkg1/f2.ts; echo new > pkg1/made.ts`;
    h.provider.enqueue(openaiToolCalls([{ id: "b1", name: "bash", args: { command } }]), openaiText("done"));
    await t.prompt("change a file with the shell");
    const result = t.session.transcript().find((line) => line.type === "tool_result" && line.id === "b1");
    expect(JSON.stringify(result)).toContain("after");
    const checkpoint = t.session.transcript().find((line) => line.type === "checkpoint");
    expect(checkpoint).toMatchObject({ round: 0 });
    expect(checkpoint).not.toHaveProperty("duringTools");
    const report = await t.session.send({ type: "undo", turns: 1 });
    expect(report.restored.map((r) => r.path).sort()).toEqual(["pkg1/f2.ts", "pkg1/made.ts"]);
    expect(readFileSync(join(h.dirs.workspace, "pkg1/f2.ts"), "utf8")).toBe("export const v = 2;\n");
    expect(existsSync(join(h.dirs.workspace, "pkg1/made.ts"))).toBe(false);
  });

  it("a later session starts from the earlier one's index: its first snapshot is waited for, as any", async () => {
    const first = await bigSession();
    h.provider.enqueue(
      openaiToolCalls([{ id: "w1", name: "write_file", args: { path: "pkg0/new.ts", content: "x\n" } }]),
      openaiText("done"),
    );
    await first.prompt("add a file");
    await first.session.close();
    const t = await bigSession();
    const seenAtRequest: boolean[] = [];
    h.provider.setResponder(() => {
      seenAtRequest.push(t.session.transcript().some((line) => line.type === "checkpoint"));
      return undefined;
    });
    h.provider.enqueue(
      openaiToolCalls([{ id: "w2", name: "write_file", args: { path: "pkg2/new.ts", content: "new\n" } }]),
      openaiText("done"),
    );
    await t.prompt("add another file");
    // Request 2 only after the before-snapshot: the batch waited for it (it was cheap).
    expect(seenAtRequest).toEqual([false, true]);
    const report = await t.session.send({ type: "undo", turns: 1 });
    expect(report.restored.map((r) => r.path)).toEqual(["pkg2/new.ts"]);
  });

  it("a batch beside it that only read leaves it a true before-snapshot: undo restores", async () => {
    const t = await bigSession();
    // The write is only asked for once the first snapshot is in (its batch then waits as usual).
    const snapshotted = new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (!t.session.transcript().some((line) => line.type === "checkpoint")) return;
        clearInterval(poll);
        resolve();
      }, 10);
    });
    const write = openaiToolCalls([
      { id: "w1", name: "write_file", args: { path: "pkg1/f1.ts", content: "changed\n" } },
    ]);
    write.holds = new Map([[0, snapshotted]]);
    h.provider.enqueue(
      openaiToolCalls([{ id: "r1", name: "read_file", args: { path: "pkg1/f1.ts" } }]),
      write,
      openaiText("done"),
    );
    await t.prompt("read, then change a file");
    const first = t.session.transcript().find((line) => line.type === "checkpoint");
    expect(first).toMatchObject({ round: 0 });
    expect(first).not.toHaveProperty("duringTools");
    const report = await t.session.send({ type: "undo", turns: 1 });
    expect(report.restored.map((r) => r.path)).toEqual(["pkg1/f1.ts"]);
    expect(readFileSync(join(h.dirs.workspace, "pkg1/f1.ts"), "utf8")).toBe("export const v = 1;\n");
  });
});
