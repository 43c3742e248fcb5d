// §10 (bounded logs) through the built CLI: twenty chatty background jobs do not fill the disk
// (every job log within `jobs.logMaxBytes`, all of them within `jobs.sessionLogMaxBytes`, the
// newest part kept), `job_output` says that earlier output was dropped, and a provider key a job
// prints is redacted in its log as in its result (§10 amended 2026-12-07).
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { killLeftovers } from "./process-support.js";
import { ternRun, useE2E, writeUserConfig } from "./tools-support.js";

const e = useE2E();
afterEach(killLeftovers);

const KEY = "sk-live-0123456789abcdefGHIJKLmnop";
const MB = 1024 * 1024;

/** Every job log of the workspace's sessions, with its size. */
function jobLogs(): { path: string; size: number }[] {
  const root = join(e.dirs.home, "sessions");
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".log") && d.parentPath.endsWith("jobs"))
    .map((d) => ({ path: join(d.parentPath, d.name), size: statSync(join(d.parentPath, d.name)).size }));
}

describe("job logs are bounded and redacted", () => {
  it("twenty chatty jobs stay within the per-job and per-session caps; the newest part is kept and the drop is said", async () => {
    writeUserConfig(e, { jobs: { logMaxBytes: 1 * MB, sessionLogMaxBytes: 4 * MB } });
    // Each job numbers its lines, so the test can tell the newest part was kept.
    const chatty = (i: number) =>
      `n=0; while :; do n=$((n+1)); echo "job ${i} line $n ${"x".repeat(200)}"; done`;
    const starts = Array.from({ length: 20 }, (_, i) => ({
      id: `s${i + 1}`,
      name: "bash",
      args: { command: chatty(i + 1), run_in_background: true },
    }));
    e.provider.enqueue(
      openaiToolCalls(starts),
      // Time for them to write many times the caps.
      openaiToolCalls([{ id: "pause", name: "bash", args: { command: "sleep 4" } }]),
      openaiToolCalls([{ id: "read", name: "job_output", args: { id: "job-1" } }]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes"], "go", { timeoutMs: 90_000 });
    expect(run.code, run.stderr).toBe(0);
    const logs = jobLogs();
    expect(logs).toHaveLength(20);
    for (const log of logs) expect(log.size).toBeLessThanOrEqual(1 * MB);
    const total = logs.reduce((n, l) => n + l.size, 0);
    expect(total).toBeLessThanOrEqual(4 * MB);
    const read = run.events.find((ev) => ev.type === "tool_result" && ev.id === "read");
    expect(read.content).toMatch(
      /\[\d+ bytes of earlier output were dropped: the job's log keeps only its newest part/,
    );
    // The newest part: the log of job 1 no longer begins at its first line.
    const first = readFileSync(logs.find((l) => l.path.endsWith("job-1.log"))!.path, "utf8");
    expect(first).not.toMatch(/^job 1 line 1 /);
    expect(first).toMatch(/job 1 line \d+ x+\n$/);
  }, 120_000);

  it("a provider key a job prints is redacted in its log and its output", async () => {
    writeFileSync(join(e.dirs.workspace, "leak.txt"), `the key is ${KEY}\n`);
    e.provider.enqueue(
      openaiToolCalls([
        { id: "s", name: "bash", args: { command: "cat leak.txt; sleep 1", run_in_background: true } },
      ]),
      openaiToolCalls([{ id: "read", name: "job_output", args: { id: "job-1", timeout_seconds: 30 } }]),
      openaiText("done"),
    );
    const run = await ternRun(e, ["--yes"], "go", { env: { OPENAI_API_KEY: KEY } });
    expect(run.code, run.stderr).toBe(0);
    const [log] = jobLogs();
    const text = readFileSync(log.path, "utf8");
    expect(text).toContain("the key is");
    expect(text).not.toContain(KEY);
    expect(run.stdout).not.toContain(KEY);
  }, 60_000);
});
