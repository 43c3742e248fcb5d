// Job logs within their caps (§10 amended 2026-12-07), without processes: a log over
// its per-job cap keeps its newest half, the session's largest log halves while the session is
// over its cap, offsets keep counting the whole output (what was dropped reads as nothing, a
// pattern scan goes on after it), and `/jobs` says how much was dropped.
import { openSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { jobsText } from "../../src/commands/reports.js";
import { LogReader } from "../../src/jobs/log-reader.js";
import { CappedLog, LogBudget } from "../../src/jobs/log-writer.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => dirs.cleanup());

function log(name: string, budget: LogBudget) {
  const path = join(dirs.home, name);
  const writer = new CappedLog(openSync(path, "w+", 0o600), budget);
  const reader = new LogReader(openSync(path, "r"), () => writer.dropped);
  return { path, writer, reader };
}

/** Line n: "line n" padded to 20 bytes with its newline. */
const line = (n: number) => `line ${n}`.padEnd(19, ".") + "\n";

describe("a capped job log", () => {
  it("keeps its newest part within the per-job cap; offsets count the whole output", () => {
    const { path, writer, reader } = log("a.log", new LogBudget({ jobBytes: 400, sessionBytes: 10_000 }));
    for (let n = 1; n <= 100; n++) writer.append(line(n));
    const size = readFileSync(path).length;
    expect(size).toBeLessThanOrEqual(400);
    expect(writer.dropped + size).toBe(2000);
    expect(reader.size()).toBe(2000);
    expect(readFileSync(path, "utf8").endsWith(line(100))).toBe(true);
    // A range that begins in the dropped part reads what is left of it.
    expect(reader.text(0, 2000)).toBe(readFileSync(path, "utf8"));
    expect(reader.text(1980, 2000)).toBe(line(100));
    // A scan from an offset the caps dropped goes on from what is left.
    const scan = reader.scan(0);
    expect(scan.advance((t) => t.includes("line 100."))).toBe(true);
  });

  it("the session's logs together stay within the session cap, the largest giving way first", () => {
    const budget = new LogBudget({ jobBytes: 10_000, sessionBytes: 1000 });
    const big = log("big.log", budget);
    const small = log("small.log", budget);
    for (let n = 1; n <= 10; n++) small.writer.append(line(n));
    for (let n = 1; n <= 100; n++) big.writer.append(line(n));
    const sizes = [big.path, small.path].map((p) => readFileSync(p).length);
    expect(sizes[0] + sizes[1]).toBeLessThanOrEqual(1000);
    expect(small.writer.dropped).toBe(0);
    expect(big.writer.dropped).toBeGreaterThan(0);
  });

  it("/jobs says how much earlier output was dropped", () => {
    const text = jobsText([
      {
        id: "job-1",
        command: "yes",
        pid: 7,
        tag: "t",
        state: { kind: "running" },
        log: "/x/job-1.log",
        dropped: 12345,
        lastLines: ["y"],
      },
    ]);
    expect(text).toBe(
      "job-1  running, pid 7  yes\n    (12345 bytes of earlier output dropped: log cap)\n    y",
    );
  });
});
