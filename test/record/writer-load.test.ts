import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { RecordError } from "../../src/record/errors.js";
import { loadRecord } from "../../src/record/load.js";
import { RECORD_VERSION } from "../../src/record/types.js";
import { RecordWriter } from "../../src/record/writer.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";
import { bundleChild, R } from "./helpers.js";

let dirs: TempDirs;
let file: string;
beforeEach(() => {
  dirs = makeTempDirs();
  file = join(dirs.root, "record.jsonl");
});
afterEach(() => dirs.cleanup());

const fixedClock = () => new Date("2026-11-29T11:52:00.000Z");

describe("RecordWriter", () => {
  it("stamps v, seq and ts and writes one line per record", () => {
    const w = RecordWriter.open(file, { now: fixedClock });
    const a = w.append(R.start());
    const b = w.append(R.user(1, "hi"));
    w.close();
    expect(a).toMatchObject({
      v: RECORD_VERSION,
      seq: 1,
      ts: "2026-11-29T11:52:00.000Z",
      type: "session_start",
    });
    expect(b.seq).toBe(2);
    const text = readFileSync(file, "utf8");
    expect(text.split("\n")).toHaveLength(3);
    expect(text.endsWith("\n")).toBe(true);
    expect(JSON.parse(text.split("\n")[1])).toEqual(b);
  });

  it("continues the seq of an existing record and never rewrites earlier lines", () => {
    const w = RecordWriter.open(file);
    w.append(R.start());
    w.append(R.user(1, "one"));
    w.close();
    const before = readFileSync(file, "utf8");
    const w2 = RecordWriter.open(file);
    expect(w2.lastSeq).toBe(2);
    expect(w2.append(R.user(2, "two")).seq).toBe(3);
    w2.close();
    const after = readFileSync(file, "utf8");
    expect(after.startsWith(before)).toBe(true);
  });

  it("cuts a torn fragment without newline before appending", () => {
    const w = RecordWriter.open(file);
    w.append(R.start());
    w.close();
    appendFileSync(file, '{"v":1,"seq":2,"ts":"x","type":"user_pro');
    const w2 = RecordWriter.open(file);
    expect(w2.lastSeq).toBe(1);
    w2.append(R.user(1, "after crash"));
    w2.close();
    const loaded = loadRecord(file);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.lines.map((l) => l.seq)).toEqual([1, 2]);
  });

  it("never cuts a complete last line: one that does not load is refused, the file untouched", () => {
    const w = RecordWriter.open(file);
    w.append(R.start());
    w.close();
    appendFileSync(file, "garbage\n");
    const before = readFileSync(file, "utf8");
    expect(() => RecordWriter.open(file)).toThrow(/last line: unparsable JSON/);
    appendFileSync(file, "");
    expect(readFileSync(file, "utf8")).toBe(before);
    writeFileSync(file, `${JSON.stringify({ v: 1, seq: 1, ts: "t", type: "mystery" })}\n`);
    expect(() => RecordWriter.open(file)).toThrow(/last line: unknown record type "mystery"/);
  });

  it("skips blank lines at the end when finding the last seq", () => {
    const w = RecordWriter.open(file);
    w.append(R.start());
    w.close();
    appendFileSync(file, "\n\n");
    const w2 = RecordWriter.open(file);
    expect(w2.lastSeq).toBe(1);
    w2.close();
  });

  it("refuses to append to a record of a newer format", () => {
    writeFileSync(file, `${JSON.stringify({ v: 99, seq: 1, ts: "", type: "cleared" })}\n`);
    expect(() => RecordWriter.open(file)).toThrow(
      /newer tern \(record format v99\); this tern reads up to v1/,
    );
  });

  it("loses nothing appended when the process is SIGKILLed right after", async () => {
    const out = mkdtempSync(join(dirs.root, "bundle-"));
    const run = await bundleChild("children/append-then-kill.ts", out);
    expect(() => run([file, "300"])).toThrow(); // killed by its own SIGKILL
    const loaded = loadRecord(file);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.lines).toHaveLength(300);
    expect(loaded.lines[299]).toMatchObject({ seq: 300, type: "notice", text: "line 299" });
  });
});

describe("loadRecord", () => {
  const line = (o: object) => `${JSON.stringify(o)}\n`;

  it("ignores a torn last line without newline, with a warning naming the file", () => {
    writeFileSync(file, line({ v: 1, seq: 1, ts: "t", type: "cleared" }) + '{"v":1,"seq":2,');
    const { lines, warnings } = loadRecord(file);
    expect(lines).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain(file);
  });

  it("a complete but unloadable last line is an error naming file and line, not a torn tail", () => {
    writeFileSync(file, line({ v: 1, seq: 1, ts: "t", type: "cleared" }) + "{oops\n");
    expect(() => loadRecord(file)).toThrow(`${file}: line 2: unparsable JSON`);
    writeFileSync(
      file,
      line({ v: 1, seq: 1, ts: "t", type: "cleared" }) + line({ v: 1, seq: 2, ts: "t", type: "mystery" }),
    );
    expect(() => loadRecord(file)).toThrow(`${file}: line 2: unknown record type "mystery"`);
  });

  it("throws a RecordError naming file and line for a corrupt line elsewhere", () => {
    writeFileSync(
      file,
      line({ v: 1, seq: 1, ts: "t", type: "cleared" }) +
        "{oops\n" +
        line({ v: 1, seq: 3, ts: "t", type: "cleared" }),
    );
    expect(() => loadRecord(file)).toThrow(RecordError);
    expect(() => loadRecord(file)).toThrow(`${file}: line 2:`);
  });

  it("with a torn tail, a bad line before it is still an error", () => {
    writeFileSync(file, line({ v: 1, seq: 1, ts: "t", type: "cleared" }) + "{oops\n" + '{"v":1');
    expect(() => loadRecord(file)).toThrow(/line 2/);
  });

  it("refuses a line of a newer version with a clear error, even as the last line", () => {
    writeFileSync(
      file,
      line({ v: 1, seq: 1, ts: "t", type: "cleared" }) + line({ v: 99, seq: 2, ts: "t", type: "cleared" }),
    );
    expect(() => loadRecord(file)).toThrow(
      /line 2: written by a newer tern \(record format v99\); this tern reads up to v1/,
    );
  });

  it("rejects unknown types and seq that goes back", () => {
    writeFileSync(file, line({ v: 1, seq: 1, type: "bogus" }) + line({ v: 1, seq: 2, type: "cleared" }));
    expect(() => loadRecord(file)).toThrow(/line 1: unknown record type "bogus"/);
    writeFileSync(file, line({ v: 1, seq: 2, type: "cleared" }) + line({ v: 1, seq: 2, type: "cleared" }));
    expect(() => loadRecord(file)).toThrow(/line 2: seq 2 does not follow 2/);
  });

  it("fills defaults for fields an older line lacks (R-REC-7)", () => {
    writeFileSync(
      file,
      line({ seq: 1, type: "assistant_message", turn: 1, round: 1, text: "hi" }) +
        line({ seq: 2, type: "turn_end", turn: 1, usage: { prompt: 5 } }),
    );
    const { lines } = loadRecord(file);
    expect(lines[0]).toMatchObject({
      v: 1,
      ts: "",
      reasoning: "",
      toolCalls: [],
      finish: "stop",
      usage: null,
    });
    expect(lines[1]).toMatchObject({
      cost: null,
      usage: { prompt: 5, completion: 0, cacheRead: 0, cacheWrite: 0 },
    });
  });

  it("names the file when it cannot be read", () => {
    expect(() => loadRecord(join(dirs.root, "missing.jsonl"))).toThrow(/missing\.jsonl: cannot read/);
  });
});
