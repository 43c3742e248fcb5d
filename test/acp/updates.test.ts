// Edit diffs sent to an ACP client read the file before and after the call: only a regular file
// up to 1 MB is read (a FIFO would block the agent, a device or a huge file would flood the
// client), and key values in it are redacted.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_DIFF_BYTES } from "../../src/acp/tool-info.js";
import { UpdateStream } from "../../src/acp/updates.js";
import { registerSecret } from "../../src/config/secrets.js";
import { makeTempDirs, type TempDirs } from "../support/tern-home.js";

let dirs: TempDirs;
let writer: ChildProcess | undefined;
beforeEach(() => {
  dirs = makeTempDirs();
});
afterEach(() => {
  writer?.kill("SIGKILL");
  writer = undefined;
  dirs.cleanup();
});

/** Runs one edit call through the stream (the file changed by `edit` between call and result). */
function editUpdates(path: string, edit: () => void): acp.SessionUpdate[] {
  const sent: acp.SessionUpdate[] = [];
  const stream = new UpdateStream(
    dirs.workspace,
    (u) => sent.push(u),
    () => [],
  );
  stream.handle({
    type: "tool_call",
    id: "w1",
    name: "write_file",
    arguments: JSON.stringify({ path }),
    presentation: { title: path, kind: "edit", locations: [{ path }] },
  } as never);
  edit();
  stream.handle({
    type: "tool_result",
    id: "w1",
    name: "write_file",
    outcome: "ok",
    content: "written",
  } as never);
  return sent;
}

const diffOf = (updates: acp.SessionUpdate[]) =>
  updates
    .filter((u) => u.sessionUpdate === "tool_call_update")
    .flatMap((u) => (u as { content?: acp.ToolCallContent[] }).content ?? [])
    .filter((c) => c.type === "diff");

describe("ACP edit diffs", () => {
  it("sends a diff of a small file, key values redacted", () => {
    registerSecret("sk-diff-secret-1234567");
    const file = join(dirs.workspace, "a.txt");
    writeFileSync(file, "key=sk-diff-secret-1234567\n");
    const diff = diffOf(editUpdates("a.txt", () => writeFileSync(file, "key=none\n")));
    expect(diff).toEqual([{ type: "diff", path: file, oldText: "key=[redacted]\n", newText: "key=none\n" }]);
  });

  it("sends no diff text for a file over the limit", () => {
    const file = join(dirs.workspace, "big.txt");
    writeFileSync(file, "x".repeat(MAX_DIFF_BYTES + 1));
    expect(diffOf(editUpdates("big.txt", () => writeFileSync(file, "small\n")))).toEqual([]);
  });

  it("never reads a FIFO (a read would block the agent until a writer came)", () => {
    const fifo = join(dirs.workspace, "pipe");
    execFileSync("mkfifo", [fifo]);
    // A writer that would feed two reads, so a reading agent finishes instead of hanging the test.
    writer = spawn("sh", ["-c", 'sleep 1; echo before > "$1"; sleep 1; echo after > "$1"', "sh", fifo], {
      stdio: "ignore",
    });
    expect(diffOf(editUpdates("pipe", () => {}))).toEqual([]);
  });
});
