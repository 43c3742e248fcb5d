// `rewind_files {turn}` (`/rewind N files`): the files go back to how they were after turn N and
// the turns after it leave the context. Three turns each write their own file, so a wrong turn
// (one off, or "the last turn" as a plain undo would take) leaves a different set of files.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { type TestSession, useHarness } from "./harness.js";

const h = useHarness();

/** Three turns; turn N writes `N.txt`. */
async function threeWritingTurns(): Promise<TestSession> {
  const t = await h.start({ checkpoints: true });
  for (const n of [1, 2, 3]) {
    h.provider.enqueue(
      openaiToolCalls([{ id: `w${n}`, name: "write_file", args: { path: `${n}.txt`, content: `${n}\n` } }]),
      openaiText(`wrote ${n}`),
    );
    await t.prompt(`turn ${n}`);
  }
  return t;
}

const present = () => [1, 2, 3].filter((n) => existsSync(join(h.dirs.workspace, `${n}.txt`)));

describe("rewind_files", () => {
  it("restores the files as they were after turn N and withdraws every later turn", async () => {
    const t = await threeWritingTurns();
    const report = await t.session.send({ type: "rewind_files", turn: 1 });
    expect(report.turns).toEqual([2, 3]);
    expect(report.restored.map((r) => r.path).sort()).toEqual(["2.txt", "3.txt"]);
    expect(present()).toEqual([1]);
    const undo = t.session.transcript().findLast((l) => l.type === "undo");
    expect(undo).toMatchObject({ type: "undo", toTurn: 1 });

    h.provider.enqueue(openaiText("ok"));
    await t.prompt("after");
    const users = h.provider.requests
      .at(-1)!
      .body.messages.filter((m: any) => m.role === "user")
      .map((m: any) => m.content);
    expect(users).toEqual(["turn 1", "after"]);
  });

  it("keeps turn N's own files: rewinding to turn 2 takes back turn 3 only", async () => {
    const t = await threeWritingTurns();
    const report = await t.session.send({ type: "rewind_files", turn: 2 });
    expect(report.turns).toEqual([3]);
    expect(present()).toEqual([1, 2]);
  });

  it("still restores after /rewind withdrew the turns from the context, and refuses a turn with nothing after it", async () => {
    const t = await threeWritingTurns();
    await t.session.send({ type: "rewind", turn: 1 });
    expect(present()).toEqual([1, 2, 3]);
    await t.session.send({ type: "rewind_files", turn: 1 });
    expect(present()).toEqual([1]);
    await expect(t.session.send({ type: "rewind_files", turn: 3 })).rejects.toThrow(
      "no turn 4 to restore the files to before",
    );
  });
});
