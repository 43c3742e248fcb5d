// R-BIG-4: undo of a first turn whose bash call changed every kind of entry, in a workspace whose
// first snapshot is a full one (no earlier index, no repository of its own) taken the way a big
// workspace's is (each file read once, the index written in-process: first-snapshot.ts). The
// bash call waits for that snapshot, so `undo` without force puts back exactly what was there.
import { execFileSync } from "node:child_process";
import { lstatSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PRELOAD_MIN_FILES } from "../../src/checkpoint/object-preload.js";
import { useHarness } from "../engine/harness.js";
import { openaiText, openaiToolCalls } from "../support/openai-script.js";
import { richWorkspace } from "./rich-workspace.js";

const h = useHarness();

/** Every entry under the workspace (nested `.git` folders left out): kind, exec bit, content or target. */
function state(): string[] {
  const out = execFileSync("find", [".", "-not", "-path", "*/.git/*", "-not", "-name", ".git"], {
    cwd: h.dirs.workspace,
    encoding: "utf8",
  });
  return out
    .split("\n")
    .filter(Boolean)
    .sort()
    .map((path) => {
      const full = join(h.dirs.workspace, path);
      const st = lstatSync(full);
      if (st.isSymbolicLink()) return `${path} -> ${readlinkSync(full)}`;
      if (st.isDirectory()) return `${path}/`;
      if (st.isFIFO()) return `${path} fifo`;
      const exec = st.mode & 0o100 ? " x" : "";
      const text = st.size > 1024 * 1024 ? `${st.size} bytes` : readFileSync(full, "latin1");
      return `${path}${exec}: ${text}`;
    });
}

describe("undo of a first turn after a full first snapshot", () => {
  it("restores every kind of entry a bash call changed, without --force", async () => {
    richWorkspace(h.dirs.workspace, PRELOAD_MIN_FILES);
    const before = state();
    const t = await h.start({ checkpoints: true, backgroundFirstFiles: 1000 });
    const command = [
      "chmod -x run.sh",
      "echo edited >> pkg3/src/f4.ts",
      "rm link.ts keep.log",
      "rmdir empty/deep",
      "echo new > made.ts",
      "echo changed > vendor/lib/index.js",
      "echo changed > 名前/ファイル.txt",
      "mkdir -p fresh/dir && echo x > fresh/dir/x.ts",
    ].join(" && ");
    // conv/crlf.txt is left alone: its `.gitattributes` has git store it with LF, as a snapshot
    // always has, so a restore would write LF where CRLF was.
    h.provider.enqueue(openaiToolCalls([{ id: "b1", name: "bash", args: { command } }]), openaiText("done"));
    await t.prompt("change everything with the shell");
    expect(state()).not.toEqual(before);
    const report = await t.session.send({ type: "undo", turns: 1 });
    expect(report.restored.length).toBeGreaterThan(0);
    expect(state()).toEqual(before);
  });
});
