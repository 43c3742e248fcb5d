// A record line the fold refuses must never reach record.jsonl: the check runs before the write,
// so a refused commit leaves a session that still loads.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SessionCore } from "../../src/engine/core.js";
import { RecordFold } from "../../src/record/fold.js";
import { loadRecord } from "../../src/record/load.js";
import { createSession } from "../../src/record/store.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

function openCore(): { core: SessionCore; file: string } {
  const created = createSession(dirs.home, { cwd: dirs.workspace, model: "local/mock-1" });
  const fold = new RecordFold();
  for (const line of loadRecord(created.file).lines) fold.apply(line);
  // Only the commit path is exercised: the parts a turn needs are never touched.
  const core = new SessionCore({
    id: created.id,
    dir: created.dir,
    cwd: dirs.workspace,
    fold,
    writer: created.writer,
    publish: () => undefined,
  } as unknown as ConstructorParameters<typeof SessionCore>[0]);
  return { core, file: created.file };
}

describe("SessionCore.commit", () => {
  it("refuses a record the fold rejects before writing it, so the session still loads", () => {
    const { core, file } = openCore();
    core.commit({ type: "user_prompt", turn: 1, content: [{ type: "text", text: "hi" }] });
    // Admissible in this phase, but names a turn that does not exist: the fold's full check refuses it.
    expect(() => core.commit({ type: "notice", turn: 7, text: "stray" })).toThrow(/notice names turn 7/);
    const loaded = loadRecord(file);
    expect(loaded.lines.map((l) => l.type)).toEqual(["session_start", "user_prompt"]);
    const again = new RecordFold();
    for (const line of loaded.lines) again.apply(line);
    expect(again.lastTurn).toBe(1);
    // The session goes on: the next valid line follows the last good one.
    core.commit({ type: "notice", turn: 1, text: "fine" });
    expect(loadRecord(file).lines.map((l) => l.type)).toEqual(["session_start", "user_prompt", "notice"]);
  });
});
