// R-CKPT-4: the first snapshot of a big workspace never delays a turn. A real session (fake
// provider, real tools, real git) in a workspace over the background bound (lowered here from
// 20,000 to 1,000 files, so the tree stays small): the request after the turn's first tool batch
// is sent while that first snapshot is still running, and the turn's end still names it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { coreOf } from "../../src/engine/session.js";
import { Checkpointer } from "../../src/engine/undo/checkpoints.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useHarness } from "../engine/harness.js";

const h = useHarness();

describe("the first snapshot of a big workspace", () => {
  it("runs beside the turn: the next request is sent before it completes", async () => {
    for (let d = 0; d < 15; d++) {
      mkdirSync(join(h.dirs.workspace, `pkg${d}`));
      for (let f = 0; f < 100; f++)
        writeFileSync(join(h.dirs.workspace, `pkg${d}`, `f${f}.ts`), `export const v = ${f};\n`);
    }
    const t = await h.start({ checkpoints: true });
    const core = coreOf(t.session);
    core.checkpoints = new Checkpointer({
      home: h.dirs.home,
      cwd: h.dirs.workspace,
      sessionId: core.id,
      settings: core.settings.checkpoints,
      archive: core.fold.archive,
      commit: (record) => core.commit(record),
      notice: () => undefined,
      backgroundFirstFiles: 1000,
    });
    const snapshotted = () => t.session.transcript().some((line) => line.type === "checkpoint");
    const seenAtRequest: boolean[] = [];
    h.provider.setResponder(() => {
      seenAtRequest.push(snapshotted());
      return undefined;
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
  });
});
