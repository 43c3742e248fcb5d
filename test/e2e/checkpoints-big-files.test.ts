// R-CKPT-1: a sparse 4 GB file made by `truncate` is judged by its allocated
// size too and skipped unread: the bash batches after it finish promptly, and undo still works.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { recordLines, ternRun, useE2E } from "./tools-support.js";

const e = useE2E();
const ws = (name: string) => join(e.dirs.workspace, name);

describe("checkpoints and huge sparse files", () => {
  it("a truncate -s 4G file does not hold up later bash batches", async () => {
    writeFileSync(ws("keep.txt"), "one\n");
    e.provider.enqueue(
      openaiToolCalls([{ id: "b1", name: "bash", args: { command: "truncate -s 4G big.bin" } }]),
      openaiToolCalls([{ id: "b2", name: "bash", args: { command: "echo two > keep.txt" } }]),
      openaiToolCalls([{ id: "b3", name: "bash", args: { command: "echo three >> keep.txt" } }]),
      openaiText("done"),
    );
    const started = Date.now();
    const run = await ternRun(e, ["--yes"], "make a big file");
    expect(run.code).toBe(0);
    // Reading 4 GB of zeros into git takes far longer than the whole run is allowed here.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(statSync(ws("big.bin")).size).toBe(4 * 1024 ** 3);
    const checkpoints = recordLines(e).filter((l) => l.type === "checkpoint");
    expect(checkpoints.length).toBeGreaterThanOrEqual(3);
    const undo = await e.run(["undo"]);
    expect(undo.code).toBe(0);
    expect(readFileSync(ws("keep.txt"), "utf8")).toBe("one\n");
    // The turn made big.bin: taking the turn back removes it, as it removes any file the turn made.
    expect(existsSync(ws("big.bin"))).toBe(false);
  }, 30_000);
});
