import { appendFileSync, existsSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadRecord } from "../../src/record/load.js";
import { META_FILE, metaFromLines, titleOf, totalCost } from "../../src/record/meta.js";
import {
  createSession,
  findSession,
  latestSession,
  listSessions,
  newSessionId,
  openSessionWriter,
  recordFile,
  workspaceKey,
} from "../../src/record/store.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { R, stamp } from "./helpers.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

describe("paths and ids", () => {
  it("workspace keys are readable and differ for same-named folders", () => {
    const a = workspaceKey("/home/me/projects/app");
    const b = workspaceKey("/srv/app");
    expect(a).toMatch(/^app-[0-9a-f]{10}$/);
    expect(b).toMatch(/^app-[0-9a-f]{10}$/);
    expect(a).not.toBe(b);
    expect(workspaceKey("/home/me/projects/app/")).toBe(a);
    expect(workspaceKey("/")).toMatch(/^root-/);
    expect(workspaceKey("/tmp/we ird/..dots")).toMatch(/^dots-/);
  });

  it("session ids sort by creation time", () => {
    const id1 = newSessionId(new Date("2026-11-29T11:52:00Z"));
    const id2 = newSessionId(new Date("2026-11-29T11:52:01Z"));
    expect(id1).toMatch(/^20261129-115200-[0-9a-f]{6}$/);
    expect([id2, id1].sort()).toEqual([id1, id2]);
  });

  it("titles are one line of at most 60 characters", () => {
    expect(titleOf("\n  fix   the\tbug\nsecond line")).toBe("fix the bug");
    const long = titleOf("x".repeat(100));
    expect(long).toHaveLength(60);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("sessions", () => {
  const create = (prompt: string, cost: number | null, at: string) => {
    const s = createSession(dirs.home, { cwd: dirs.workspace, model: "openai/m", now: () => new Date(at) });
    s.writer.append(R.context());
    s.writer.append(R.user(1, prompt));
    s.writer.append(R.assistant(1, 1, "ok"));
    s.writer.append(R.end(1, cost));
    s.writer.close();
    return s;
  };

  it("creates the folder layout and a session_start", () => {
    const s = create("hello", 0.5, "2026-01-01T00:00:00Z");
    expect(s.dir).toBe(join(dirs.home, "sessions", workspaceKey(dirs.workspace), s.id));
    expect(existsSync(join(s.dir, "attachments"))).toBe(true);
    const { lines } = loadRecord(recordFile(s.dir));
    expect(lines[0]).toMatchObject({
      seq: 1,
      type: "session_start",
      id: s.id,
      cwd: dirs.workspace,
      model: "openai/m",
    });
    expect(lines[0].ts).toBe("2026-01-01T00:00:00.000Z");
  });

  it("finds sessions by id or unique prefix in any workspace", () => {
    const a = create("a", 0, "2026-01-01T00:00:00Z");
    const other = createSession(dirs.home, {
      cwd: dirs.root,
      model: "m",
      now: () => new Date("2026-02-02T00:00:00Z"),
    });
    other.writer.close();
    expect(findSession(dirs.home, a.id)).toEqual({ id: a.id, dir: a.dir });
    expect(findSession(dirs.home, "20260202")).toEqual({ id: other.id, dir: other.dir });
    expect(() => findSession(dirs.home, "2026")).toThrow(/ambiguous/);
    expect(findSession(dirs.home, "nope")).toBeUndefined();
    expect(findSession(dirs.home, "../x")).toBeUndefined();
  });

  it("lists newest first with title, turns, cost and model", () => {
    create("first prompt", 0.25, "2026-01-01T00:00:00Z");
    create("second prompt", null, "2026-01-02T00:00:00Z");
    const list = listSessions(dirs.home, dirs.workspace);
    expect(list.map((s) => [s.title, s.turns, s.cost, s.model])).toEqual([
      ["second prompt", 1, null, "openai/m"],
      ["first prompt", 1, 0.25, "openai/m"],
    ]);
    expect(list[0].started).toBe("2026-01-02T00:00:00.000Z");
    expect(listSessions(dirs.home, dirs.root)).toEqual([]);
  });

  it("reads meta.json instead of the record while it is fresh, and rebuilds it when stale", () => {
    const s = create("real title", 1, "2026-01-01T00:00:00Z");
    const metaFile = join(s.dir, META_FILE);
    const meta = JSON.parse(readFileSync(metaFile, "utf8"));
    writeFileSync(metaFile, JSON.stringify({ ...meta, title: "from meta" }));
    expect(listSessions(dirs.home, dirs.workspace)[0].title).toBe("from meta");
    // the record grows without the writer: meta no longer describes it
    appendFileSync(
      recordFile(s.dir),
      `${JSON.stringify({ v: 1, seq: 6, ts: "t", type: "config", model: "x/y" })}\n`,
    );
    const rebuilt = listSessions(dirs.home, dirs.workspace)[0];
    expect(rebuilt.title).toBe("real title");
    expect(rebuilt.model).toBe("x/y");
    expect(JSON.parse(readFileSync(metaFile, "utf8")).title).toBe("real title");
  });

  it("sums costs per turn, every run of a re-ended (/retry) turn included", () => {
    const s = create("p", 0.5, "2026-01-01T00:00:00Z");
    const w = openSessionWriter(s.dir);
    w.append(R.user(2, "q"));
    w.append(R.end(2, 0.1, "failed"));
    w.append(R.assistant(2, 1, "retried"));
    w.append(R.end(2, 0.2));
    w.close();
    const [entry] = listSessions(dirs.home, dirs.workspace);
    expect(entry.turns).toBe(2);
    expect(entry.cost).toBeCloseTo(0.8);
  });

  it("a fork's cost leaves out the turns it copied from its parent, as the ledger does", () => {
    const lines = stamp([
      { type: "session_start", id: "s1", cwd: "/ws", model: "m", parent: { session: "p", turn: 1, seq: 4 } },
      R.user(1, "copied"),
      R.assistant(1, 1, "a"),
      R.end(1, 0.5),
      R.user(2, "own"),
      R.assistant(2, 1, "b"),
      R.end(2, 0.25),
    ]);
    expect(totalCost(metaFromLines(lines, 0))).toBeCloseTo(0.25);
    // A fork made before parent.seq existed: the copy ends with parent.turn.
    const old = lines.map((l, i) => (i === 0 ? { ...l, parent: { session: "p", turn: 1 } } : l));
    expect(totalCost(metaFromLines(old as typeof lines, 0))).toBeCloseTo(0.25);
  });

  it("lists an unreadable session with its error instead of failing", () => {
    const s = create("p", 0, "2026-01-01T00:00:00Z");
    writeFileSync(
      recordFile(s.dir),
      '{"v":1,"seq":1,"type":"cleared"}\nbroken\n{"v":1,"seq":3,"type":"cleared"}\n',
    );
    const [entry] = listSessions(dirs.home, dirs.workspace);
    expect(entry.error).toMatch(/line 2/);
  });

  it("latestSession picks the most recently written record", () => {
    const a = create("a", 0, "2026-01-01T00:00:00Z");
    const b = create("b", 0, "2026-01-02T00:00:00Z");
    utimesSync(recordFile(a.dir), new Date(), new Date(Date.now() + 60_000));
    expect(latestSession(dirs.home, dirs.workspace)?.id).toBe(a.id);
    utimesSync(recordFile(b.dir), new Date(), new Date(Date.now() + 120_000));
    expect(latestSession(dirs.home, dirs.workspace)?.id).toBe(b.id);
    expect(latestSession(dirs.home, dirs.root)).toBeUndefined();
  });

  it("two sessions created in the same second get distinct ids", () => {
    const now = () => new Date("2026-01-01T00:00:00Z");
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const s = createSession(dirs.home, { cwd: dirs.workspace, model: "m", now });
      s.writer.close();
      ids.add(s.id);
    }
    expect(ids.size).toBe(20);
  });
});
