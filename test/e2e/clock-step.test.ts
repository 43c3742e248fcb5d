// Through the built CLI: the wall clock steps an hour forward or back in the middle of a turn
// (test/support/clock-step-preload.cjs). Durations are measured on the monotonic clock, so the
// turn's duration_ms (event, record, `tern metrics`) stays the few seconds the turn took, and a
// retry wait under a duration budget is not mistaken for one that would pass it.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { jsonEvents, runCli } from "../support/cli.js";
import { useTriggeredFault } from "../support/triggered-fault.js";
import { openaiError, openaiText, openaiToolCalls } from "../support/openai-script.js";

const PRELOAD = resolve(import.meta.dirname, "../support/clock-step-preload.cjs");
const HOUR = 3_600_000;
/** Far more than a turn here takes, far less than the step. */
const PLAUSIBLE = 60_000;

const fault = useTriggeredFault("clock-stepped", {
  retry: { maxRetries: 2, baseDelaySeconds: 0.01, jitter: 0 },
});
beforeEach(() => {
  // The clock steps once the first request has been answered.
  fault.provider.setResponder(() => {
    if (fault.provider.requests.length === 2) writeFileSync(fault.trigger, "");
    return undefined;
  });
});

function tern(args: string[], stepMs: number) {
  return runCli(args, {
    home: fault.dirs.home,
    cwd: fault.dirs.workspace,
    env: {
      NODE_OPTIONS: `--require ${PRELOAD}`,
      TERN_TEST_CLOCK_STEP: fault.trigger,
      TERN_TEST_CLOCK_STEP_MS: String(stepMs),
    },
  });
}

describe.each([HOUR, -HOUR])("a wall-clock step of %i ms mid-turn", (stepMs) => {
  it("leaves duration_ms the turn's real length in events, record and metrics, and a retry under --max-duration runs", async () => {
    fault.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "a.txt" } }]),
      // After the step: one failure, whose retry must not be refused by the duration budget.
      openaiError(500, { error: { message: "try again" } }),
      openaiText("done"),
    );
    const args = [
      "run",
      "--json",
      "--max-duration",
      "600",
      "--model",
      "openai/mock-1",
      "--base-url",
      fault.provider.baseUrl,
    ];
    const r = await tern([...args, "go"], stepMs);
    expect(r.code, r.stderr).toBe(0);
    const events = jsonEvents(r.stdout);
    expect(events.some((e) => e.type === "retry_scheduled")).toBe(true);
    const end = events.find((e) => e.type === "turn_end");
    expect(end.stop_reason).toBe("completed");
    expect(end.duration_ms).toBeGreaterThanOrEqual(0);
    expect(end.duration_ms).toBeLessThan(PLAUSIBLE);

    const sessions = join(fault.dirs.home, "sessions");
    const [ws] = readdirSync(sessions);
    const [id] = readdirSync(join(sessions, ws));
    const record = readFileSync(join(sessions, ws, id, "record.jsonl"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(record.find((l) => l.type === "turn_end").durationMs).toBe(end.duration_ms);

    const metrics = await tern(["metrics", "--json"], 0);
    expect(metrics.code, metrics.stderr).toBe(0);
    const { rows } = JSON.parse(metrics.stdout);
    expect(rows.find((row: any) => row.turn === 1).durationMs).toBe(end.duration_ms);
  });
});
