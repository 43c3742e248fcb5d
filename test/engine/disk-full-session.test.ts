// A session that lives on after its disk filled up: the turn whose end the disk refused stops
// `failed` (class `disk`), and once there is room the next prompt runs, its turn's end (with
// answers to the calls it left open) written first, so the record stays legal and loadable.
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadRecord } from "../../src/record/load.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { useHarness } from "./harness.js";

const realWriteSync = fs.writeSync;
/** While set, every write to record.jsonl fails as on a full disk. */
let full = false;

function fillable(): void {
  fs.writeSync = ((fd: number, ...rest: unknown[]) => {
    if (full && fs.readlinkSync(`/proc/self/fd/${fd}`).endsWith("record.jsonl")) {
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    }
    return (realWriteSync as (...a: unknown[]) => number)(fd, ...rest);
  }) as typeof fs.writeSync;
  syncBuiltinESMExports();
}

afterEach(() => {
  full = false;
  fs.writeSync = realWriteSync;
  syncBuiltinESMExports();
});

describe("a full disk inside a live session", () => {
  const h = useHarness();

  it("fails the turn naming the disk, and the next prompt runs once there is room", async () => {
    fillable();
    // The disk fills while the person approves the call: its answer is in, its tool_start is not.
    const t = await h.start({
      hooks: {
        approve: async (calls) => {
          full = true;
          return new Map(calls.map((c) => [c.id, "approved" as const]));
        },
      },
    });
    h.provider.enqueue(
      openaiToolCalls([{ id: "c1", name: "write_file", args: { path: "a.txt", content: "x" } }]),
      openaiText("second answer"),
    );
    const first = await t.prompt("first");
    expect(first.stopReason).toBe("failed");
    expect(first.error).toMatchObject({ class: "disk", message: expect.stringContaining("record.jsonl") });
    expect(t.events.filter((e) => e.type === "turn_end")).toHaveLength(1);

    full = false;
    const second = await t.prompt("second");
    expect(second).toMatchObject({ turn: 2, stopReason: "completed", finalText: "second answer" });
    expect(h.provider.violations).toEqual([]);

    const [ws] = fs.readdirSync(join(h.dirs.home, "sessions"));
    const file = join(h.dirs.home, "sessions", ws, t.session.id, "record.jsonl");
    const lines = loadRecord(file).lines;
    expect(
      lines.filter((l) => l.type === "turn_end").map((l: any) => [l.turn, l.stopReason, l.error?.class]),
    ).toEqual([
      [1, "failed", "disk"],
      [2, "completed", undefined],
    ]);
    // The call whose result the disk refused is answered before turn 1's end.
    expect(lines.find((l) => l.type === "tool_result" && (l as any).id === "c1")).toMatchObject({ turn: 1 });
  });
});
