// Through the built CLI: the disk fills up mid-turn (test/support/disk-full-preload.cjs makes
// every write into TERN_HOME fail with ENOSPC from a chosen request on). The turn stops `failed`
// with an error of class `disk` naming the file, `turn_end` is still emitted, an answer that
// reached the record is printed, and once there is room again the session resumes.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { jsonEvents, runCli } from "../support/cli.js";
import { useTriggeredFault } from "../support/triggered-fault.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";

const PRELOAD = resolve(import.meta.dirname, "../support/disk-full-preload.cjs");
const ANSWER = "The answer that reached the disk.";

const fault = useTriggeredFault("disk-full", { retry: { maxRetries: 0 } });

/** The disk is full from the `n`th model request on (the request itself is still answered). */
function fillDiskAtRequest(n: number): void {
  let seen = 0;
  fault.provider.setResponder(() => {
    if (++seen === n) writeFileSync(fault.trigger, "");
    return undefined;
  });
}

function run(json: boolean, allowLines: number, prompt = "go", extra: string[] = []) {
  return runCli(
    [
      "run",
      ...(json ? ["--json"] : []),
      ...extra,
      "--model",
      "openai/mock-1",
      "--base-url",
      fault.provider.baseUrl,
      prompt,
    ],
    {
      home: fault.dirs.home,
      cwd: fault.dirs.workspace,
      env: {
        NODE_OPTIONS: `--require ${PRELOAD}`,
        TERN_TEST_DISK_FULL: fault.trigger,
        TERN_TEST_DISK_FULL_ALLOW: String(allowLines),
      },
    },
  );
}

function recordFile(): string {
  const ws = join(fault.dirs.home, "sessions");
  const [workspace] = readdirSync(ws);
  const [session] = readdirSync(join(ws, workspace));
  return join(ws, workspace, session, "record.jsonl");
}

function recordLines(): any[] {
  return readFileSync(recordFile(), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
}

describe.each([true, false])("a disk that fills mid-turn (--json: %s)", (json) => {
  it("stops the turn `failed` naming the disk and the record, with turn_end, when the answer is refused", async () => {
    fillDiskAtRequest(2);
    fault.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "a.txt" } }]),
      openaiText(ANSWER),
    );
    const r = await run(json, 0);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toMatch(/internal/);
    expect(r.stdout + r.stderr).toContain(`no space left on device (ENOSPC) writing ${recordFile()}`);
    if (json) {
      const events = jsonEvents(r.stdout);
      expect(events.find((e) => e.type === "error")).toMatchObject({ class: "disk" });
      const end = events.find((e) => e.type === "turn_end");
      expect(end).toMatchObject({
        stop_reason: "failed",
        rounds: 2,
        model_calls: 2,
        error: { class: "disk" },
      });
      expect(events.some((e) => e.type === "assistant_message" && e.text === ANSWER)).toBe(false);
    } else {
      // The answer never reached the record: nothing on stdout, the stop on stderr.
      expect(r.stdout).toBe("");
      expect(r.stderr).toContain("turn 1 stopped: failed");
    }
    // Nothing half-written: every line loads; the answer is not among them.
    expect(recordLines().some((l) => l.type === "assistant_message" && l.text === ANSWER)).toBe(false);

    // Room again: the session resumes, the cut-off turn closed, and the next turn is answered.
    rmSync(fault.trigger);
    fault.provider.enqueue(openaiText("second"));
    const again = await run(json, 0, "again", ["--continue"]);
    expect(again.code).toBe(0);
    expect(fault.provider.violations).toEqual([]);
    const ends = recordLines().filter((l) => l.type === "turn_end");
    expect(ends.map((l) => [l.turn, l.stopReason])).toEqual([
      [1, "aborted"],
      [2, "completed"],
    ]);
  });

  it("delivers an answer that reached the record when its turn_end is refused", async () => {
    fillDiskAtRequest(2);
    fault.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "a.txt" } }]),
      openaiText(ANSWER),
    );
    const r = await run(json, 1);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toMatch(/internal/);
    expect(recordLines().some((l) => l.type === "assistant_message" && l.text === ANSWER)).toBe(true);
    if (json) {
      const events = jsonEvents(r.stdout);
      expect(events.find((e) => e.type === "assistant_message" && e.text === ANSWER)).toBeDefined();
      expect(events.at(-1)).toMatchObject({
        type: "turn_end",
        stop_reason: "failed",
        rounds: 2,
        error: { class: "disk", message: expect.stringContaining(recordFile()) },
      });
    } else {
      expect(r.stdout).toBe(`${ANSWER}\n`);
      expect(r.stderr).toContain(`no space left on device (ENOSPC) writing ${recordFile()}`);
    }
  });

  it("stops at once when a tool result is refused, never asking the model again", async () => {
    fillDiskAtRequest(1);
    fault.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "read_file", args: { path: "a.txt" } }]),
      openaiText(ANSWER),
    );
    // The first answer (with its call) gets in; its tool_start does not.
    const r = await run(json, 1);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toMatch(/internal|not admissible/);
    expect(fault.provider.requests).toHaveLength(1);
    if (json) {
      const end = jsonEvents(r.stdout).find((e) => e.type === "turn_end");
      expect(end).toMatchObject({ stop_reason: "failed", error: { class: "disk" } });
    }
    expect(existsSync(fault.trigger)).toBe(true);
  });
});

it("a disk full before the session starts is one line naming the file, exit 1", async () => {
  writeFileSync(fault.trigger, "");
  const r = await run(false, 0);
  expect(r.code).toBe(1);
  expect(r.stderr).not.toMatch(/internal/);
  expect(r.stderr.trim().split("\n")).toHaveLength(1);
  expect(r.stderr).toMatch(/^tern: no space left on device \(ENOSPC\) writing \//);
});
