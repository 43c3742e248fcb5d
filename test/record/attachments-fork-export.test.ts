import { existsSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { attachmentsDir, loadImage, pruneClearedImages, storeImage } from "../../src/record/attachments.js";
import { exportSession } from "../../src/record/export.js";
import { RecordFold } from "../../src/record/fold.js";
import { forkSession } from "../../src/record/fork.js";
import { loadRecord } from "../../src/record/load.js";
import {
  createSession,
  findSession,
  listSessions,
  openSessionWriter,
  recordFile,
} from "../../src/record/store.js";
import type { NewRecord } from "../../src/record/types.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { call, R } from "./helpers.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

const png = (n: number) => Buffer.from([0x89, 0x50, 0x4e, 0x47, n]);
const imagePrompt = (turn: number, ref: string, text: string): NewRecord => ({
  type: "user_prompt",
  turn,
  content: [
    { type: "text", text },
    { type: "image", mediaType: "image/png", ref },
  ],
});

describe("attachments", () => {
  it("stores an image once by content hash and loads it back as base64", () => {
    const dir = dirs.root;
    const ref = storeImage(dir, png(1), "image/png");
    expect(ref).toMatch(/^[0-9a-f]{64}\.png$/);
    expect(storeImage(dir, png(1), "image/png")).toBe(ref);
    expect(readdirSync(attachmentsDir(dir))).toEqual([ref]);
    expect(loadImage(dir, ref)).toEqual({ data: png(1).toString("base64"), mediaType: "image/png" });
    expect(storeImage(dir, png(2), "image/jpeg")).toMatch(/\.jpg$/);
    expect(loadImage(dir, "../../etc/passwd")).toBeUndefined();
    expect(loadImage(dir, `${"0".repeat(64)}.png`)).toBeUndefined();
  });

  it("after /clear deletes only images no remaining line mentions", () => {
    const dir = dirs.root;
    const gone = storeImage(dir, png(1), "image/png");
    const kept = storeImage(dir, png(2), "image/png");
    const lines = RecordFold.from(
      [
        R.start(),
        imagePrompt(1, gone, "a"),
        imagePrompt(1, kept, "b"),
        { type: "cleared" },
        imagePrompt(2, kept, "c"),
      ].map((r, i) => ({ v: 1, seq: i + 1, ts: "", ...r }) as never),
    ).archive;
    expect(pruneClearedImages(dir, lines)).toEqual([gone]);
    expect(loadImage(dir, gone)).toBeUndefined();
    expect(loadImage(dir, kept)).toBeDefined();
    expect(pruneClearedImages(dir, lines.slice(0, 3))).toEqual([]);
  });
});

/** Two turns with a tool round, an image and a compaction; returns the session. */
function parentSession() {
  const s = createSession(dirs.home, {
    cwd: dirs.workspace,
    model: "openai/m",
    now: () => new Date("2026-03-01T10:00:00Z"),
  });
  const ref = storeImage(s.dir, png(7), "image/png");
  const recs: NewRecord[] = [
    R.context(),
    imagePrompt(1, ref, "what is in this picture?"),
    {
      ...(R.assistant(1, 1, "Let me look.", [call("c1", "bash", { command: "ls -la" })]) as object),
      reasoning: "think <b>",
    } as NewRecord,
    R.toolStart(1, "c1", "bash"),
    R.result(1, "c1", "bash", "total 0\n```inner fence```"),
    R.assistant(1, 2, "A cat."),
    R.end(1, 0.01),
    {
      type: "compaction",
      stage: "shed",
      fromSeq: 3,
      toSeq: 6,
      placeholders: { "6": "[bash output shed]" },
      beforeTokens: 500,
      afterTokens: 100,
    },
    R.user(2, "and now?"),
    R.assistant(2, 1, "Still a cat."),
    R.end(2, 0.02),
  ];
  for (const r of recs) s.writer.append(r);
  s.writer.close();
  return { ...s, ref };
}

describe("forkSession", () => {
  it("copies records up to the end of turn N, renumbered, with parent and images", () => {
    const parent = parentSession();
    const id = forkSession(dirs.home, parent.id, 1);
    const fork = findSession(dirs.home, id)!;
    const { lines } = loadRecord(recordFile(fork.dir));
    expect(lines[0]).toMatchObject({
      type: "session_start",
      id,
      parent: { session: parent.id, turn: 1 },
      model: "openai/m",
    });
    expect(lines.map((l) => l.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(lines.at(-1)).toMatchObject({ type: "turn_end", turn: 1 });
    expect(lines.some((l) => l.type === "compaction")).toBe(false);
    expect(loadImage(fork.dir, parent.ref)).toBeDefined();
    const pf = RecordFold.from(loadRecord(recordFile(parent.dir)).lines.slice(0, 8));
    expect(RecordFold.from(lines).messages).toEqual(pf.messages);
    expect(RecordFold.from(lines).lastTurn).toBe(1);
  });

  it("by default copies every ended turn, compaction included, with the same model context", () => {
    const parent = parentSession();
    const id = forkSession(dirs.home, parent.id.slice(0, 18));
    const fork = findSession(dirs.home, id)!;
    const forkFold = RecordFold.from(loadRecord(recordFile(fork.dir)).lines);
    const parentFold = RecordFold.from(loadRecord(recordFile(parent.dir)).lines);
    expect(forkFold.messages).toEqual(parentFold.messages);
    // `seq`: the last copied line, so the ledger bills the copies to the parent only.
    expect(forkFold.sessionStart?.parent).toEqual({ session: parent.id, turn: 2, seq: forkFold.lastSeq });
    expect(forkFold.archive.find((l) => l.type === "compaction")).toMatchObject({ fromSeq: 3, toSeq: 6 });
    const listed = listSessions(dirs.home, dirs.workspace).find((s) => s.id === id)!;
    expect(listed).toMatchObject({
      title: "what is in this picture? [image]",
      turns: 2,
      parent: { session: parent.id },
    });
    // The copied turns are the parent's bill (R-REC-8: not counted again): the fork has spent nothing yet.
    expect(listed.cost).toBe(0);
  });

  it("remaps compaction ranges when the parent's seq numbers have gaps", () => {
    const s = createSession(dirs.home, { cwd: dirs.workspace, model: "m" });
    s.writer.close();
    // a parent whose lines skip seq numbers (e.g. itself hand-repaired)
    const file = recordFile(s.dir);
    const start = loadRecord(file).lines[0];
    const lines = [
      start,
      { v: 1, seq: 10, ts: "", type: "user_prompt", turn: 1, content: [{ type: "text", text: "q" }] },
      { v: 1, seq: 20, ts: "", ...R.assistant(1, 1, "long answer") },
      { v: 1, seq: 30, ts: "", ...R.end(1) },
      {
        v: 1,
        seq: 40,
        ts: "",
        type: "compaction",
        stage: "summarize",
        fromSeq: 10,
        toSeq: 20,
        summary: "S",
        beforeTokens: 1,
        afterTokens: 1,
      },
      { v: 1, seq: 50, ts: "", ...R.user(2, "q2") },
      { v: 1, seq: 60, ts: "", ...R.end(2) },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const fork = findSession(dirs.home, forkSession(dirs.home, s.id))!;
    const forked = loadRecord(recordFile(fork.dir)).lines;
    expect(forked.find((l) => l.type === "compaction")).toMatchObject({ seq: 5, fromSeq: 2, toSeq: 3 });
    expect(RecordFold.from(forked).messages).toEqual(RecordFold.from(lines as never).messages);
  });

  it("remaps shed placeholder and argument keys with the seq numbers", () => {
    const s = createSession(dirs.home, { cwd: dirs.workspace, model: "m" });
    s.writer.close();
    const file = recordFile(s.dir);
    const start = loadRecord(file).lines[0];
    const write = call("w1", "write_file", { path: "a.txt", content: "x".repeat(50) });
    const lines = [
      start,
      { v: 1, seq: 10, ts: "", ...R.user(1, "q") },
      { v: 1, seq: 20, ts: "", ...R.assistant(1, 1, "writing", [write]) },
      { v: 1, seq: 25, ts: "", ...R.result(1, "w1", "write_file", "wrote a.txt") },
      { v: 1, seq: 27, ts: "", ...R.assistant(1, 2, "done") },
      {
        v: 1,
        seq: 30,
        ts: "",
        type: "compaction",
        stage: "shed",
        fromSeq: 20,
        toSeq: 20,
        placeholders: { "20": "writing" },
        arguments: { "20": { w1: '{"path":"a.txt","content":"x… [shed]"}' } },
        beforeTokens: 1,
        afterTokens: 1,
      },
      { v: 1, seq: 40, ts: "", ...R.end(1) },
    ];
    writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const fork = findSession(dirs.home, forkSession(dirs.home, s.id))!;
    const forked = loadRecord(recordFile(fork.dir)).lines;
    expect(forked.find((l) => l.type === "compaction")).toMatchObject({
      fromSeq: 3,
      toSeq: 3,
      placeholders: { "3": "writing" },
      arguments: { "3": { w1: '{"path":"a.txt","content":"x… [shed]"}' } },
    });
    const messages = RecordFold.from(forked).messages;
    expect(messages).toEqual(RecordFold.from(lines as never).messages);
    expect(messages[1]).toMatchObject({
      toolCalls: [{ id: "w1", arguments: '{"path":"a.txt","content":"x… [shed]"}' }],
    });
  });

  it("refuses a turn that has not ended and an unknown session", () => {
    const parent = parentSession();
    expect(() => forkSession(dirs.home, parent.id, 5)).toThrow(/no ended turn 5/);
    expect(() => forkSession(dirs.home, "nope")).toThrow(/no session 'nope'/);
  });
});

describe("exportSession", () => {
  it("renders Markdown with folded tool calls, reasoning, usage and markers", () => {
    const parent = parentSession();
    const md = exportSession(dirs.home, parent.id, "md");
    expect(md).toContain(`# tern session ${parent.id}`);
    expect(md).toContain("- model: openai/m");
    expect(md).toContain("- cost: $0.0300");
    expect(md).toContain("## Turn 1");
    expect(md).toContain("what is in this picture?");
    expect(md).toContain(`[image image/png: attachments/${parent.ref}]`);
    expect(md).toContain("<details><summary>bash: ls -la</summary>");
    expect(md).toContain('{"command":"ls -la"}');
    expect(md).toContain("````\ntotal 0\n```inner fence```\n````");
    expect(md).toContain("<details><summary>reasoning</summary>");
    expect(md).toContain("_Compaction (shed) of records 3–6: 500 → 100 tokens_");
    expect(md).toMatch(/_Turn 2 ended: completed · rounds 1 .* cost \$0\.0200/);
  });

  it("shows a placeholder for an image whose attachment was deleted by /clear", () => {
    const parent = parentSession();
    const dir = findSession(dirs.home, parent.id)!.dir;
    const w = openSessionWriter(dir);
    w.append({ type: "cleared" });
    w.close();
    expect(pruneClearedImages(dir, loadRecord(recordFile(dir)).lines)).toEqual([parent.ref]);
    expect(existsSync(join(attachmentsDir(dir), parent.ref))).toBe(false);
    const md = exportSession(dirs.home, parent.id, "md");
    expect(md).toContain(`[image deleted: ${parent.ref}]`);
    expect(md).toContain("Context cleared");
  });

  it("exports JSON with the whole archive and the session summary", () => {
    const parent = parentSession();
    const json = JSON.parse(exportSession(dirs.home, parent.id, "json"));
    expect(json.session).toMatchObject({ id: parent.id, model: "openai/m", turns: 2, cwd: dirs.workspace });
    expect(json.session.cost).toBeCloseTo(0.03);
    expect(json.records).toHaveLength(12);
    expect(json.records[0].type).toBe("session_start");
    expect(statSync(recordFile(parent.dir)).size).toBeGreaterThan(0);
  });
});
